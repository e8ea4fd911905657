package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.CancelCallback;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.Return;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.InvalidMessageException;
import org.albumstore.common.event.WriteBundle;
import org.junit.jupiter.api.Test;

/**
 * Qpid Broker-J against what this project does with a broker: common's topology, confirmed
 * persistent mandatory publishes, returns, prefetch with manual acks, passive declares,
 * reconnecting. Dead-lettering is in {@link EmbeddedBrokerDeadLetterIT}.
 */
class EmbeddedBrokerIT extends BrokerFixture {
  @Test
  void commonTopologyDeclaresAndRedeclares() throws Exception {
    Topology.declare(channel, settings);
    Topology.declare(channel, settings); // both server and consumer declare at start-up

    assertThat(channel.queueDeclarePassive(settings.queue()).getQueue())
        .isEqualTo(settings.queue());
    channel.queueDeclarePassive(settings.deadLetterQueue());
    channel.exchangeDeclarePassive(settings.exchange());
    channel.exchangeDeclarePassive(settings.deadLetterExchange());
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void quorumQueueTypeIsAcceptedAsAPlainQueue() throws Exception {
    AmqpSettings quorum = new AmqpSettings(settings.uri(), settings.queue(), QueueType.QUORUM);

    Topology.declare(channel, quorum);
    publishConfirmed(channel, 1);

    assertThat(depth(quorum.queue())).isEqualTo(1);
  }

  @Test
  void confirmedPersistentMandatoryPublishesAreCountedByPassiveDeclare() throws Exception {
    Topology.declare(channel, settings);

    publishConfirmed(channel, 25);

    assertThat(depth(settings.queue())).isEqualTo(25);
    GetResponse got = channel.basicGet(settings.queue(), true);
    assertThat(got.getProps().getDeliveryMode()).isEqualTo(2);
    assertThat(got.getProps().getMessageId()).isNotBlank();
    assertThat(EventCodec.decode(got.getBody()).reviews()).hasSize(1);
  }

  @Test
  void unroutableMandatoryMessageIsReturnedAndNacked() throws Exception {
    // RabbitMQ returns it and then acks; Qpid returns it and nacks. A publisher that treats a
    // return or a nack as "not stored" is right on both.
    Topology.declare(channel, settings);
    CompletableFuture<Return> returned = new CompletableFuture<>();
    channel.addReturnListener(returned::complete);
    channel.confirmSelect();

    WriteBundle b = batch();
    AMQP.BasicProperties props = EventCodec.properties(b);
    channel.basicPublish(settings.exchange(), "no-such-key", true, props, EventCodec.encode(b));

    assertThat(channel.waitForConfirms(CONFIRM_TIMEOUT_MS)).isFalse();
    Return r = returned.get(5, TimeUnit.SECONDS);
    assertThat(r.getReplyCode()).isEqualTo(AMQP.NO_ROUTE);
    assertThat(r.getProperties().getMessageId()).isEqualTo(props.getMessageId());
    assertThat(channel.isOpen()).isTrue();
    publishConfirmed(channel, 1); // the channel goes on confirming routable messages
    assertThat(depth(settings.queue())).isEqualTo(1);
  }

  @Test
  void prefetchBoundsUnackedDeliveriesAndManualAcksDrainTheQueue() throws Exception {
    Topology.declare(channel, settings);
    publishConfirmed(channel, 12);
    BlockingQueue<Long> delivered = new LinkedBlockingQueue<>();
    Channel consumer = connection.createChannel();
    consumer.basicQos(5);
    consumer.basicConsume(
        settings.queue(),
        false,
        (tag, delivery) -> delivered.add(delivery.getEnvelope().getDeliveryTag()),
        (CancelCallback) tag -> {});

    // With nothing acked, exactly the prefetch arrives and no more.
    for (int i = 0; i < 5; i++) {
      assertThat(delivered.poll(5, TimeUnit.SECONDS)).as("delivery %d", i).isNotNull();
    }
    assertThat(delivered.poll(300, TimeUnit.MILLISECONDS)).isNull();

    // Each ack lets the rest through; all 12 arrive and the queue ends empty.
    int acked = 0;
    Long tag;
    consumer.basicAck(5, true);
    acked += 5;
    while (acked < 12 && (tag = delivered.poll(5, TimeUnit.SECONDS)) != null) {
      consumer.basicAck(tag, false);
      acked++;
    }
    assertThat(acked).isEqualTo(12);
    consumer.close();
    assertThat(depth(settings.queue())).isZero();
  }

  @Test
  void messagesOutliveTheConnectionThatPublishedThem() throws Exception {
    Topology.declare(channel, settings);
    publishConfirmed(channel, 4);
    connection.close(5_000);

    connection = AmqpConnections.open(settings, "it-reopened");
    channel = connection.createChannel();

    assertThat(depth(settings.queue())).isEqualTo(4);
    for (int i = 0; i < 4; i++) {
      GetResponse got = channel.basicGet(settings.queue(), false);
      assertThat(EventCodec.decode(got.getBody()).size()).isEqualTo(1);
      channel.basicAck(got.getEnvelope().getDeliveryTag(), false);
    }
    assertThat(depth(settings.queue())).isZero();
  }

  @Test
  void aPushConsumerReceivesWhatIsPublishedAfterItSubscribed() throws Exception {
    Topology.declare(channel, settings);
    Channel consumer = connection.createChannel();
    CompletableFuture<WriteBundle> received = new CompletableFuture<>();
    consumer.basicConsume(
        settings.queue(),
        false,
        new DefaultConsumer(consumer) {
          @Override
          public void handleDelivery(
              String tag, Envelope env, AMQP.BasicProperties props, byte[] body)
              throws IOException {
            try {
              received.complete(EventCodec.decode(body));
              getChannel().basicAck(env.getDeliveryTag(), false);
            } catch (InvalidMessageException e) {
              received.completeExceptionally(e);
            }
          }
        });

    publishConfirmed(channel, 1);

    assertThat(received.get(5, TimeUnit.SECONDS).reviews()).hasSize(1);
  }

  @Test
  void aSecondBrokerRunsBesideTheFirstInTheSameJvm() throws Exception {
    try (EmbeddedBroker second = EmbeddedBroker.start()) {
      AmqpSettings there = new AmqpSettings(second.uri(), settings.queue(), QueueType.CLASSIC);
      try (Connection c = AmqpConnections.open(there, "it-second");
          Channel ch = c.createChannel()) {
        Topology.declare(ch, there);
        ch.confirmSelect();
        ch.basicPublish(there.exchange(), Topology.ROUTING_KEY, true, null, new byte[] {1});
        ch.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
        assertThat(ch.queueDeclarePassive(there.queue()).getMessageCount()).isEqualTo(1);
      }
      assertThat(second.port()).isNotEqualTo(broker.port());
    }
    // The first broker never saw that queue.
    assertThatThrownBy(() -> channel.queueDeclarePassive(settings.queue()))
        .hasStackTraceContaining("404");
  }

  @Test
  void anUnknownVirtualHostIsRefused() {
    AmqpSettings wrongVhost =
        new AmqpSettings(broker.uri().replace("%2F", "nope"), "q", QueueType.CLASSIC);

    assertThatThrownBy(() -> AmqpConnections.open(wrongVhost, "it-wrong-vhost").close())
        .hasStackTraceContaining("nope");
  }

  @Test
  void theUriNamesTheDefaultVirtualHostOnLoopback() {
    assertThat(broker.uri()).isEqualTo("amqp://guest:guest@127.0.0.1:" + broker.port() + "/%2F");
    assertThat(broker.port()).isNotEqualTo(EmbeddedBroker.RABBITMQ_INTER_NODE_PORT);
    assertThat(connection.getServerProperties().get("product").toString()).contains("Qpid");
    assertThat(Map.copyOf(connection.getServerProperties())).containsKey("version");
  }
}
