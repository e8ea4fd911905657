package org.albumstore.consumer.internal.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The backlog that arms the partial-batch wait ({@code --backlog-wait-ms}), polled by hand: the
 * watch counts the ready messages of every partition against its threshold, and lets go once they
 * are gone.
 */
class BacklogWatchIT {
  private AmqpSettings amqp;

  @AfterEach
  void tearDown() throws Exception {
    if (amqp != null) {
      TestServices.deleteTopology(amqp);
    }
  }

  @Test
  void aBacklogInAnyPartitionCountsAndGoesOnceThePartitionIsEmpty() throws Exception {
    amqp = TestServices.declare(TestServices.amqp("backlog-watch").withPartitions(2));
    AmqpSettings.Partition second = amqp.partition(1);
    try (Connection c = AmqpConnections.open(amqp, "it-backlog-publisher");
        Channel ch = c.createChannel();
        BacklogWatch watch =
            BacklogWatch.unstarted(AmqpConnections.open(amqp, "it-backlog-watch"), amqp, 20, 10)) {
      ch.confirmSelect();
      publish(ch, second, 20);
      watch.poll();
      assertThat(watch.getAsBoolean()).as("20 ready against a threshold of 20").isFalse();

      publish(ch, second, 1);
      watch.poll();
      assertThat(watch.getAsBoolean()).as("21 ready in partition 1").isTrue();

      ch.queuePurge(second.queue());
      watch.poll();
      assertThat(watch.getAsBoolean()).as("partition 1 purged").isFalse();
    }
  }

  private static void publish(Channel ch, AmqpSettings.Partition p, int messages) throws Exception {
    for (int i = 0; i < messages; i++) {
      ch.basicPublish(p.exchange(), Topology.ROUTING_KEY, null, new byte[] {1});
    }
    ch.waitForConfirmsOrDie(10_000);
  }
}
