package org.albumstore.faults.bluegreen;

import com.rabbitmq.client.Connection;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.embedded.cluster.RabbitCluster;

/**
 * One broker of a blue/green: its nodes, its one entry (a {@code mode tcp} balancer, as Amazon MQ
 * gives each broker one endpoint) carrying the test's queue, and the release its nodes report.
 *
 * @param name {@code blue} or {@code green}
 * @param amqp the test's queue at this broker's entry: the same queue name on both brokers, so that
 *     a server or consumer moves by its broker address alone
 * @param version what the broker says it runs (the AMQP handshake's {@code version})
 */
public record BrokerSide(String name, RabbitCluster nodes, AmqpSettings amqp, String version) {

  /** {@code amqp}'s broker, its version asked of it now. */
  public static BrokerSide of(String name, RabbitCluster nodes, AmqpSettings amqp)
      throws Exception {
    try (Connection c = AmqpConnections.open(amqp, "faults-bluegreen-" + name + "-version")) {
      String version = String.valueOf(c.getServerProperties().get("version"));
      return new BrokerSide(name, nodes, amqp, version);
    }
  }

  @Override
  public String toString() {
    return name + " (RabbitMQ " + version + ", " + nodes.nodes().size() + " nodes)";
  }
}
