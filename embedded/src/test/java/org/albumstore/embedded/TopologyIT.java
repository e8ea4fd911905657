package org.albumstore.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.MessageProperties;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * common's {@link Topology} on the test services' broker (RabbitMQ where it runs, the embedded Qpid
 * elsewhere): a message rejected without requeue reaches the dead-letter queue on both, and
 * declaring twice is harmless.
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

      GetResponse dead = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (dead == null && System.nanoTime() < deadline) {
        dead = ch.basicGet(s.deadLetterQueue(), true);
        if (dead == null) {
          Thread.sleep(20);
        }
      }
      assertThat(dead).as("dead-lettered message").isNotNull();
      assertThat(dead.getBody()).containsExactly(7);
    } finally {
      TestServices.deleteTopology(s);
    }
  }
}
