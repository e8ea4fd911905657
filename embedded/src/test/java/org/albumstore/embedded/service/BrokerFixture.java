package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.internal.Endpoint;
import org.albumstore.embedded.internal.PortProbe;
import org.albumstore.embedded.testing.Bundles;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/**
 * One embedded broker per test class, a connection, channel and topology names per test, and the
 * publishing and polling the broker tests share. Topology is deleted after each test whatever part
 * of it exists.
 */
abstract class BrokerFixture {
  static final long CONFIRM_TIMEOUT_MS = 5_000;

  static EmbeddedBroker broker;

  AmqpSettings settings;
  Connection connection;
  Channel channel;

  @BeforeAll
  static void startBroker() {
    broker = EmbeddedBroker.start();
  }

  @AfterAll
  static void stopBroker() throws IOException {
    if (broker != null) {
      int port = broker.port();
      broker.close();
      assertThat(PortProbe.tcp(Duration.ofSeconds(1)).answers(new Endpoint("127.0.0.1", port)))
          .as("port %d after close", port)
          .isFalse();
    }
  }

  @BeforeEach
  void connect(TestInfo test) throws Exception {
    String name = test.getTestMethod().orElseThrow().getName();
    settings =
        new AmqpSettings(
            broker.uri(),
            "it." + name + "." + UUID.randomUUID().toString().substring(0, 8),
            QueueType.CLASSIC);
    connection = AmqpConnections.open(settings, "it-" + name);
    channel = connection.createChannel();
  }

  @AfterEach
  void cleanUp() throws Exception {
    if (connection != null && connection.isOpen()) {
      connection.close(5_000);
    }
    TestServices.deleteTopology(settings);
  }

  static WriteBundle batch() {
    return Bundles.reviews(List.of(new Review(UUID.randomUUID(), "album-1", Vote.LIKE)));
  }

  void publishConfirmed(Channel ch, int count) throws Exception {
    ch.confirmSelect();
    for (int i = 0; i < count; i++) {
      WriteBundle b = batch();
      ch.basicPublish(
          settings.exchange(),
          Topology.ROUTING_KEY,
          true,
          EventCodec.properties(b),
          EventCodec.encode(b));
    }
    ch.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
  }

  long depth(String queue) throws IOException {
    return channel.queueDeclarePassive(queue).getMessageCount();
  }

  GetResponse pollQueue(String queue) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline) {
      GetResponse r = channel.basicGet(queue, false);
      if (r != null) {
        return r;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("nothing arrived in " + queue + " within 5 s");
  }
}
