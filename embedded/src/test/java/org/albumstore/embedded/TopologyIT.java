package org.albumstore.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.MessageProperties;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * common's {@link Topology} on the test services' broker (RabbitMQ where it runs, the embedded Qpid
 * elsewhere): a message rejected without requeue reaches the dead-letter queue on both, and
 * declaring twice is harmless; partitions are declared beside the queue, each with its own
 * dead-letter queue, and those left by a larger P are found.
 */
class TopologyIT {
  private static AmqpSettings settings(String name, QueueType type) {
    AmqpSettings base = TestServices.amqp(name + "-" + type.wireName());
    return new AmqpSettings(base.uri(), base.queue(), type);
  }

  @ParameterizedTest
  @EnumSource(QueueType.class)
  void aRejectedMessageReachesTheDeadLetterQueue(QueueType type) throws Exception {
    AmqpSettings s = settings("topology-dlq", type);
    try (Connection c = AmqpConnections.open(s, "it-topology");
        Channel ch = c.createChannel()) {
      Topology.declare(ch, s);
      Topology.declare(ch, s); // both sides declare at start-up; the second declare is a no-op

      ch.confirmSelect();
      ch.basicPublish(
          s.exchange(),
          Topology.ROUTING_KEY,
          true,
          MessageProperties.PERSISTENT_BASIC,
          new byte[] {7});
      ch.waitForConfirmsOrDie(5_000);
      GetResponse got = ch.basicGet(s.queue(), false);
      ch.basicReject(got.getEnvelope().getDeliveryTag(), false);

      GetResponse dead = awaitGet(ch, s.deadLetterQueue());
      assertThat(dead).as("dead-lettered message").isNotNull();
      assertThat(dead.getBody()).containsExactly(7);
    } finally {
      TestServices.deleteTopology(s);
    }
  }

  @Test
  void growingPKeepsTheQueueAndAddsPartitionsThatRouteAndDeadLetterOnTheirOwn() throws Exception {
    AmqpSettings one = settings("topology-partitions", QueueType.CLASSIC);
    AmqpSettings three = one.withPartitions(3);
    try (Connection c = AmqpConnections.open(one, "it-topology");
        Channel ch = c.createChannel()) {
      Topology.declare(ch, one);
      ch.confirmSelect();
      publish(ch, one.partition(0), 1);
      assertThat(Topology.messages(c, three.partition(1).queue())).isEqualTo(-1);

      Topology.declare(ch, three);
      for (int i = 0; i < 3; i++) {
        publish(ch, three.partition(i), 10 + i);
      }
      assertThat(three.partitionList())
          .extracting(AmqpSettings.Partition::queue)
          .containsExactly(one.queue(), one.queue() + ".1", one.queue() + ".2");
      // Partition 0 kept the message published before P grew; each partition got its own.
      assertThat(Topology.messages(c, three.partition(0).queue())).isEqualTo(2);
      assertThat(Topology.messages(c, three.partition(1).queue())).isEqualTo(1);
      assertThat(Topology.messages(c, three.partition(2).queue())).isEqualTo(1);
      // P shrinks back to 1 or 2: the partitions left over are still found, to be drained.
      assertThat(Topology.depths(c, one).keySet()).containsExactlyElementsOf(three.partitionList());
      assertThat(Topology.depths(c, one.withPartitions(2)))
          .containsExactly(
              Map.entry(three.partition(0), 2L),
              Map.entry(three.partition(1), 1L),
              Map.entry(three.partition(2), 1L));
      assertThat(Topology.depths(c, one.withPartitions(4)))
          .as("a partition below P that does not exist")
          .containsEntry(one.partition(3), -1L);

      GetResponse got = ch.basicGet(three.partition(2).queue(), false);
      assertThat(got.getBody()).containsExactly(12);
      ch.basicReject(got.getEnvelope().getDeliveryTag(), false);
      GetResponse dead = awaitGet(ch, three.partition(2).deadLetterQueue());
      assertThat(dead).as("dead-lettered beside its partition").isNotNull();
      assertThat(dead.getBody()).containsExactly(12);
      assertThat(Topology.messages(c, three.partition(0).queue())).isEqualTo(2);
      assertThat(Topology.messages(c, three.deadLetterQueue())).isZero();
    } finally {
      TestServices.deleteTopology(three);
    }
  }

  private static void publish(Channel ch, AmqpSettings.Partition p, int body) throws Exception {
    ch.basicPublish(
        p.exchange(),
        Topology.ROUTING_KEY,
        true,
        MessageProperties.PERSISTENT_BASIC,
        new byte[] {(byte) body});
    ch.waitForConfirmsOrDie(5_000);
  }

  private static GetResponse awaitGet(Channel ch, String queue) throws Exception {
    GetResponse got = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (got == null && System.nanoTime() < deadline) {
      got = ch.basicGet(queue, true);
      if (got == null) {
        Thread.sleep(20);
      }
    }
    return got;
  }
}
