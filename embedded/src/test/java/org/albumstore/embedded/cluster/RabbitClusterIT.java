package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.nio.file.Path;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three nodes of the installed RabbitMQ form one cluster on loopback, and the write queue declared
 * through the address list with group size 3 is a quorum queue with a member on every node.
 */
class RabbitClusterIT {
  private static RabbitCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    ExternalTools.system()
        .requireThat(
            RabbitCluster.installed(),
            "RabbitMQ (rabbitmq-server, rabbitmqctl; apt-get install rabbitmq-server)",
            "the 3-node RabbitMQ cluster test");
    String prefix = "albumstore-it-" + UUID.randomUUID().toString().substring(0, 8);
    cluster = RabbitCluster.start(prefix, 3, Path.of("target", "rabbit-cluster-it", prefix));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theWriteQueueIsAQuorumQueueWithAMemberOnEachOfTheThreeNodes() throws Exception {
    AmqpSettings s =
        new AmqpSettings(
            cluster.uri(0), cluster.addresses(), "it.cluster.writes", QueueType.QUORUM, 3);
    try (Connection c = AmqpConnections.open(s, "it-cluster");
        Channel ch = c.createChannel()) {
      Topology.declare(ch, s);
      Topology.declare(ch, s); // the same arguments: declaring again is harmless
    }
    assertThat(cluster.membersOf(s.queue()))
        .containsExactlyInAnyOrderElementsOf(
            cluster.nodes().stream().map(RabbitNode::nodeName).toList());
    assertThat(cluster.leaderOf(s.queue())).isPresent();
  }
}
