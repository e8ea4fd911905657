package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.consumer.internal.amqp.DeadLetterWatch;
import org.albumstore.embedded.cluster.Engines;
import org.albumstore.embedded.testing.Bundles;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.Scrapes;
import org.albumstore.embedded.testing.TcpProxy;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A write whose consumer dies {@value #KILLS} times while it holds it, on a quorum queue: past
 * {@link Topology#DELIVERY_LIMIT} returns the broker dead-letters it (reason {@code
 * delivery_limit}), at least once; the consumer's gauge counts it in the dead-letter queue; {@code
 * redrive} brings it back, and it is applied exactly once. The same on RabbitMQ 3.10 (whose quorum
 * queues are unlimited unless told) and 4.0 (limited to 20 by default): the limit is declared.
 *
 * <p>The consumer is real; what kills it, as far as the broker can tell, is its connection cut
 * while it holds the write (a process killed mid-batch is a TCP connection that drops with
 * unacknowledged deliveries). It holds the write because its database is cut too, so the write
 * cannot commit and is never acknowledged; its connection recovers after each cut and takes the
 * write again, until the broker stops handing it out.
 */
class DeliveryLimitIT {
  private static final Logger log = LoggerFactory.getLogger(DeliveryLimitIT.class);
  private static final int KILLS = 25;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @AutoClose private Fixture f;
  @AutoClose private TcpProxy brokerProxy;
  @AutoClose private Connection probe;
  private Channel probeChannel;

  @Test
  void aWriteReturnedPastTheLimitIsDeadLetteredCountedAndRedrivenOnce(TestInfo info)
      throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName(), AmqpSettings.QueueType.QUORUM);
    requireRabbitMq();
    String album = f.album(0);
    WriteBundle write = Bundles.reviews(List.of(Fixture.review(album, Vote.LIKE)));
    f.publish(write);
    DatabaseSettings cutDb = f.databaseThroughProxy();
    f.proxy().cut();
    AlbumStoreConsumer consumer =
        f.start(
            Fixture.settings(1, 1, 10, 10),
            throughProxy(f.amqp),
            cutDb,
            new MetricsSettings(0, "127.0.0.1"));

    int deadLetteredAfter = 0;
    for (int kill = 1; kill <= KILLS; kill++) {
      await("the consumer holds the write (kill " + kill + ")", WAIT, this::held);
      brokerProxy.dropConnections();
      // The broker has seen the consumer go (it reconnects 1 s later) and taken the write back.
      await("the broker sees the kill", WAIT, () -> consumers() == 0 || f.deadLetters() == 1);
      if (f.deadLetters() == 1) {
        deadLetteredAfter = kill;
        break;
      }
    }
    for (int kill = deadLetteredAfter + 1; kill <= KILLS; kill++) {
      await("the consumer is back (kill " + kill + ")", WAIT, () -> consumers() == 1);
      brokerProxy.dropConnections();
      await("the broker sees the kill", WAIT, () -> consumers() == 0);
    }
    await("the consumer is back", WAIT, () -> consumers() == 1);
    log.info(
        "RabbitMQ {}: dead-lettered after kill {} of {}",
        brokerVersion(),
        deadLetteredAfter,
        KILLS);

    // Past the limit: the write was handed out again after each of the first DELIVERY_LIMIT
    // returns, and the next one (3.10.8 and 4.0.5 alike) sent it to the dead-letter queue, with the
    // broker's reason; nothing of it was applied.
    assertThat(deadLetteredAfter).isEqualTo(Topology.DELIVERY_LIMIT + 1);
    assertThat(f.ready()).isZero();
    assertThat(f.counts(album)).isNull();
    assertThat(deadLetterReason()).isEqualTo("delivery_limit");
    // Counted where an alert can see it, on every broker.
    await("the gauge counts it", WAIT, () -> gauge(consumer) == 1.0);

    f.proxy().restore();
    Fixture.Redrive run = f.redrive();
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("moved 1 messages", "broker: delivery_limit");
    await("the redriven write is applied", WAIT, () -> f.counts(album) != null);
    await("the queues are empty", WAIT, () -> f.ready() == 0 && f.deadLetters() == 0);
    assertThat(f.counts(album)).containsExactly(1, 0);
    // A second redrive moves nothing, and the write still counts once.
    assertThat(f.redrive().out()).contains("moved 0 messages");
    Thread.sleep(1000);
    assertThat(f.counts(album)).containsExactly(1, 0);
    await("the gauge is back to 0", WAIT, () -> gauge(consumer) == 0.0);
  }

  private static void requireRabbitMq() throws Exception {
    // Qpid Broker-J (a bare machine's embedded broker) has no quorum queue and no delivery limit.
    boolean rabbit;
    try (Connection c = AmqpConnections.open(TestServices.amqp("probe"), "it-probe");
        Channel ch = c.createChannel()) {
      rabbit = Topology.isRabbitMq(ch);
    }
    ExternalTools.system()
        .requireThat(rabbit, "RabbitMQ (quorum queues)", "the delivery limit test on " + engines());
  }

  private String brokerVersion() throws Exception {
    try (Connection c = AmqpConnections.open(f.amqp, "it-version")) {
      return String.valueOf(c.getServerProperties().get("version"));
    }
  }

  private static String engines() {
    return Engines.system().toString();
  }

  private AmqpSettings throughProxy(AmqpSettings amqp) throws Exception {
    URI broker = URI.create(amqp.uri());
    brokerProxy = TcpProxy.start(broker.getHost(), broker.getPort());
    return new AmqpSettings(
        amqp.uri().replace(":" + broker.getPort() + "/", ":" + brokerProxy.port() + "/"),
        amqp.queue(),
        amqp.queueType());
  }

  /**
   * The write is delivered to the consumer and unacknowledged: the consumer is registered, and the
   * write is neither ready nor dead-lettered.
   */
  private boolean held() throws Exception {
    return consumers() == 1 && f.ready() == 0 && f.deadLetters() == 0;
  }

  /**
   * Consumers registered on the write queue, asked on a connection kept open: a poll takes a
   * millisecond, well inside the second the consumer's connection takes to recover after a cut.
   */
  private long consumers() throws Exception {
    if (probe == null) {
      probe = AmqpConnections.open(f.amqp, "it-consumers");
      probeChannel = probe.createChannel();
    }
    return probeChannel.queueDeclarePassive(f.amqp.queue()).getConsumerCount();
  }

  private String deadLetterReason() throws Exception {
    try (Connection c = AmqpConnections.open(f.amqp, "it-dlq-peek")) {
      Channel ch = c.createChannel();
      GetResponse dead = ch.basicGet(f.amqp.deadLetterQueue(), false);
      Map<String, Object> headers = dead.getProps().getHeaders();
      ch.close(); // returns it to the dead-letter queue
      return String.valueOf(headers.get("x-first-death-reason"));
    }
  }

  private double gauge(AlbumStoreConsumer consumer) throws Exception {
    String text =
        HTTP.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + consumer.metricsPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return Scrapes.sum(
        text, DeadLetterWatch.GAUGE.replace('.', '_'), Map.of("queue", f.amqp.deadLetterQueue()));
  }
}
