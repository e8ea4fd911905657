package org.albumstore.client.internal.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.MessageProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.albumstore.client.ManagementApiProbe;
import org.albumstore.client.QueueSample;
import org.albumstore.client.internal.http.Sleeper;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The queue-depth sources against the real local RabbitMQ: the management API (which refreshes its
 * figures every few seconds, hence the bounded polling) and the AMQP passive declare.
 */
class BrokerSamplerIT {
  private static final String API =
      System.getenv().getOrDefault("ALBUMSTORE_RMQ_API", "http://127.0.0.1:15672");
  private static final int MESSAGES = 25;

  private AmqpSettings settings;

  @BeforeEach
  void declare() throws Exception {
    // Three partitions: every depth below is the sum over them (the messages go round-robin).
    settings = TestServices.declare(TestServices.amqp("client-sampler").withPartitions(3));
  }

  @AfterEach
  void delete() throws Exception {
    TestServices.deleteTopology(settings);
  }

  private void publish(int n) throws Exception {
    try (Connection c = AmqpConnections.open(settings, "it-client-publisher");
        Channel ch = c.createChannel()) {
      ch.confirmSelect();
      for (int i = 0; i < n; i++) {
        ch.basicPublish(
            settings.partition(i % settings.partitions()).exchange(),
            Topology.ROUTING_KEY,
            MessageProperties.PERSISTENT_BASIC,
            ("m" + i).getBytes(StandardCharsets.UTF_8));
      }
      ch.waitForConfirmsOrDie(10_000);
    }
  }

  private void consumeAll() throws Exception {
    try (Connection c = AmqpConnections.open(settings, "it-client-consumer");
        Channel ch = c.createChannel()) {
      for (AmqpSettings.Partition p : settings.partitionList()) {
        GetResponse r;
        while ((r = ch.basicGet(p.queue(), false)) != null) {
          ch.basicAck(r.getEnvelope().getDeliveryTag(), false);
        }
      }
    }
  }

  private ManagementApiProbe managementProbe() {
    return new ManagementApiProbe(API, "/", settings.queue(), "guest", "guest");
  }

  @Test
  void theAmqpProbeSeesReadyMessagesAtOnce() throws Exception {
    publish(MESSAGES);
    try (AmqpPassiveProbe probe = new AmqpPassiveProbe(settings)) {
      QueueSample s = probe.sample();
      assertThat(s.source()).isEqualTo("amqp");
      assertThat(s.depth()).isEqualTo(MESSAGES);
      assertThat(s.unacked()).isEqualTo(-1);
      consumeAll();
      assertThat(probe.sample().depth()).isZero();
    }
  }

  @Test
  void theAmqpProbeSurvivesAMissingQueue() throws Exception {
    AmqpSettings missing = settings.withQueue(settings.queue() + ".missing");
    try (AmqpPassiveProbe probe = new AmqpPassiveProbe(missing)) {
      assertThatThrownBy(probe::sample).isInstanceOf(java.io.IOException.class);
      assertThatThrownBy(probe::sample).isInstanceOf(java.io.IOException.class); // channel reopened
    }
  }

  @Test
  void theSamplerReadsTheManagementApiAndSeesTheQueueDrain() throws Exception {
    // The embedded Qpid broker (machines without RabbitMQ) has no RabbitMQ management API: a
    // skip there, a failure on CI, where RabbitMQ runs with its management plugin (.ci/run).
    String unavailable = null;
    try {
      managementProbe().sample();
    } catch (java.io.IOException e) {
      unavailable = e.toString();
    }
    ExternalTools.system()
        .requireThat(
            unavailable == null,
            "the RabbitMQ management API at " + API + " (" + unavailable + ")",
            "the management-API sampler test");
    publish(MESSAGES);
    try (BrokerSampler sampler =
        BrokerSampler.start(
            List.of(managementProbe(), new AmqpPassiveProbe(settings)), Duration.ofMillis(250))) {
      assertThat(sampler.source()).isEqualTo("management-api");
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (sampler.latest().depth() != MESSAGES && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(sampler.latest().depth()).isEqualTo(MESSAGES);

      long consumedAt = System.currentTimeMillis();
      consumeAll();
      DrainWaiter.Result drain =
          DrainWaiter.await(sampler, consumedAt, Duration.ofSeconds(30), Sleeper.REAL);
      assertThat(drain.status()).isEqualTo(DrainWaiter.Status.DRAINED);
      assertThat(sampler.aggregate().maxDepth()).isEqualTo(MESSAGES);
    }
  }

  @Test
  void anUnreachableManagementApiFallsBackToAmqp() throws Exception {
    ManagementApiProbe nowhere =
        new ManagementApiProbe("http://127.0.0.1:1", "/", settings.queue(), "guest", "guest");
    try (BrokerSampler sampler =
        BrokerSampler.start(
            List.of(nowhere, new AmqpPassiveProbe(settings)), Duration.ofSeconds(1))) {
      assertThat(sampler.source()).isEqualTo("amqp");
      assertThat(sampler.latest().depth()).isZero();
    }
  }
}
