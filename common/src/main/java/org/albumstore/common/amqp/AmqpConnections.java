package org.albumstore.common.amqp;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import org.albumstore.common.config.AmqpSettings;

/**
 * Opens broker connections the same way on both sides of the queue.
 *
 * <p>Why not plain {@code ConnectionFactory.setUri}: for {@code amqps://} it installs a trust-all
 * TLS context. Here {@code amqps://} uses the JVM's default trust store and verifies the host name,
 * which is what Amazon MQ's publicly signed certificates need and what keeps TLS meaningful.
 *
 * <p>Connections go to {@link AmqpSettings#addressList()}: with several nodes amqp-client picks one
 * at random for each connection and each recovery, so instances spread over a cluster and a lost
 * node is replaced by another.
 *
 * <p>Automatic recovery is on: after a broker restart the connection and its channels come back by
 * themselves; callers must still treat an unconfirmed publish as failed.
 */
public final class AmqpConnections {
  private AmqpConnections() {}

  public static ConnectionFactory factory(AmqpSettings settings) {
    ConnectionFactory f = new ConnectionFactory();
    try {
      f.setUri(settings.uri());
      if (settings.tls()) {
        f.useSslProtocol(SSLContext.getDefault());
        f.enableHostnameVerification();
      }
    } catch (Exception e) {
      throw new IllegalArgumentException(
          "cannot use AMQP URI " + settings.redactedUri() + ": " + e.getMessage(), e);
    }
    f.setAutomaticRecoveryEnabled(true);
    f.setTopologyRecoveryEnabled(true);
    f.setNetworkRecoveryInterval(1000);
    f.setRequestedHeartbeat(30);
    f.setConnectionTimeout(10_000);
    f.setShutdownTimeout(5_000);
    // Bounds every channel RPC (declare, cancel, close): a hung broker must not hold a shutdown for
    // amqp-client's default of ten minutes.
    f.setChannelRpcTimeout(30_000);
    return f;
  }

  /** Opens one named connection (the name shows in the management UI). */
  public static Connection open(AmqpSettings settings, String connectionName)
      throws IOException, TimeoutException {
    return open(factory(settings), settings, connectionName);
  }

  /** Opens one named connection with a factory of {@link #factory} the caller adjusted. */
  public static Connection open(
      ConnectionFactory factory, AmqpSettings settings, String connectionName)
      throws IOException, TimeoutException {
    return factory.newConnection(settings.addressList(), connectionName);
  }
}
