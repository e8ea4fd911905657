package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.CancelCallback;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.junit.jupiter.api.Test;

/**
 * Dead-lettering, redelivery and unacknowledged messages on Qpid Broker-J under common's {@link
 * Topology} (which adds Qpid's own dead-letter arguments there), and the differences from RabbitMQ
 * that a consumer (and a queue-depth reader) must know about.
 */
class EmbeddedBrokerDeadLetterIT extends BrokerFixture {
  @Test
  void rejectWithoutRequeueReachesTheDeadLetterQueue() throws Exception {
    Topology.declare(channel, settings);
    publishConfirmed(channel, 1);

    GetResponse got = channel.basicGet(settings.queue(), false);
    channel.basicReject(got.getEnvelope().getDeliveryTag(), false);

    GetResponse dead = pollQueue(settings.deadLetterQueue());
    assertThat(dead.getBody()).isEqualTo(got.getBody());
    assertThat(dead.getProps().getMessageId()).isEqualTo(got.getProps().getMessageId());
    assertThat(depth(settings.queue())).isZero();
  }

  @Test
  void nackWithoutRequeueOfEachMessageReachesTheDeadLetterQueue() throws Exception {
    Topology.declare(channel, settings);
    publishConfirmed(channel, 3);
    Channel consumer = connection.createChannel();
    consumer.basicQos(10);
    consumer.basicConsume(
        settings.queue(),
        false,
        (tag, d) -> consumer.basicNack(d.getEnvelope().getDeliveryTag(), false, false),
        (CancelCallback) tag -> {});

    for (int i = 0; i < 3; i++) {
      pollQueue(settings.deadLetterQueue());
    }
    assertThat(depth(settings.queue())).isZero();
  }

  @Test
  void nackMultipleWithoutRequeueDeadLettersOnlyTheLastMessageOnQpid() throws Exception {
    // Qpid 10.0.1 looks up the delivery count of the *last* tag for every message of a multiple
    // nack: the last is dead-lettered and the others are requeued ("Requested requeue of message
    // ... but no such delivery tag exists"). A consumer must reject poison messages one by one.
    Topology.declare(channel, settings);
    publishConfirmed(channel, 3);
    GetResponse last = null;
    for (int i = 0; i < 3; i++) {
      last = channel.basicGet(settings.queue(), false);
    }

    channel.basicNack(last.getEnvelope().getDeliveryTag(), true, false);

    Channel other = connection.createChannel();
    assertThat(pollQueue(settings.deadLetterQueue()).getBody()).isEqualTo(last.getBody());
    assertThat(other.basicGet(settings.deadLetterQueue(), true)).isNull();
    assertThat(other.queueDeclarePassive(settings.queue()).getMessageCount()).isEqualTo(2);
  }

  @Test
  void passiveDeclareCountsDeliveredButUnackedMessagesOnQpid() throws Exception {
    // RabbitMQ's declare-ok message count is the ready messages only; Qpid's includes messages
    // delivered and not yet acknowledged, so a queue depth read this way includes the prefetch.
    Topology.declare(channel, settings);
    publishConfirmed(channel, 3);

    GetResponse unacked = channel.basicGet(settings.queue(), false);
    Channel other = connection.createChannel();
    long whileUnacked = other.queueDeclarePassive(settings.queue()).getMessageCount();
    channel.basicAck(unacked.getEnvelope().getDeliveryTag(), false);
    long afterAck = other.queueDeclarePassive(settings.queue()).getMessageCount();

    assertThat(whileUnacked).isEqualTo(3);
    assertThat(afterAck).isEqualTo(2);
  }

  @Test
  void aConsumerThatDiesUnackedGetsItsMessagesRedeliveredNotDeadLettered() throws Exception {
    // x-qpid-maximum-delivery-count=1 must not turn an ordinary redelivery into a dead letter.
    Topology.declare(channel, settings);
    publishConfirmed(channel, 2);
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    try (Connection dying = AmqpConnections.open(settings, "it-dying")) {
      Channel ch = dying.createChannel();
      ch.basicQos(10);
      ch.basicConsume(
          settings.queue(),
          false,
          (tag, d) -> seen.add(d.getProperties().getMessageId()),
          (CancelCallback) tag -> {});
      assertThat(seen.poll(5, TimeUnit.SECONDS)).isNotNull();
      assertThat(seen.poll(5, TimeUnit.SECONDS)).isNotNull();
    } // closed with both messages unacked

    for (int round = 0; round < 2; round++) {
      GetResponse again = pollQueue(settings.queue());
      assertThat(again.getEnvelope().isRedeliver()).isTrue();
      channel.basicReject(again.getEnvelope().getDeliveryTag(), true); // requeue: stays too
    }
    assertThat(depth(settings.deadLetterQueue())).isZero();
    assertThat(depth(settings.queue())).isEqualTo(2);
  }
}
