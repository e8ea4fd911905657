package org.albumstore.client.internal.broker;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.util.Map;
import org.albumstore.client.QueueSample;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queue depth from passive queue declares over AMQP: the fallback where there is no management API
 * (e.g. Amazon MQ without it reachable), summed over the partitions the consumers would consume
 * ({@link Topology#depths}: the queue and those beside it up to the first missing one). It sees
 * only ready messages, not those in flight at a consumer, and no rates. The connection (with
 * automatic recovery) is kept between samples.
 */
public final class AmqpPassiveProbe implements QueueProbe {
  public static final String SOURCE = "amqp";
  private static final Logger log = LoggerFactory.getLogger(AmqpPassiveProbe.class);
  private static final int CONNECT_TIMEOUT_MS = 3_000;

  private final AmqpSettings settings;
  private Connection connection;

  public AmqpPassiveProbe(AmqpSettings settings) {
    this.settings = settings;
  }

  @Override
  public String source() {
    return SOURCE;
  }

  @Override
  public QueueSample sample() throws Exception {
    if (connection == null) {
      ConnectionFactory f = AmqpConnections.factory(settings);
      f.setConnectionTimeout(CONNECT_TIMEOUT_MS);
      connection = f.newConnection("albumstore-client-queue-sampler");
    }
    long ready = 0;
    for (Map.Entry<AmqpSettings.Partition, Long> d :
        Topology.depths(connection, settings).entrySet()) {
      if (d.getValue() < 0) {
        throw new IOException("queue " + d.getKey().queue() + " does not exist");
      }
      ready += d.getValue();
    }
    return new QueueSample(System.currentTimeMillis(), SOURCE, ready, -1, Double.NaN, Double.NaN);
  }

  @Override
  public void close() {
    if (connection != null) {
      try {
        connection.close(2_000);
      } catch (IOException | RuntimeException e) {
        // Also an AlreadyClosedException: the close-ok not back within the 2 s on a busy broker.
        // The samples are taken; a failed close must not fail the run that reported them.
        log.warn("closing the sampler's AMQP connection failed: {}", e.toString());
      }
    }
  }
}
