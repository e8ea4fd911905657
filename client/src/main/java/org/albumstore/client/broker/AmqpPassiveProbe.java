package org.albumstore.client.broker;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import org.albumstore.client.stats.QueueSample;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queue depth from a passive queue declare over AMQP: the fallback where there is no management API
 * (e.g. Amazon MQ without it reachable), summed over the partitions up to the first missing one (as
 * {@link ManagementApiProbe}). It sees only ready messages, not those in flight at a consumer, and
 * no rates.
 *
 * <p>A passive declare of a missing queue closes the channel (AMQP 404), so the channel is reopened
 * on the next sample; the connection (with automatic recovery) is kept.
 */
public final class AmqpPassiveProbe implements QueueProbe {
  public static final String SOURCE = "amqp";
  private static final Logger log = LoggerFactory.getLogger(AmqpPassiveProbe.class);
  private static final int CONNECT_TIMEOUT_MS = 3_000;

  private final AmqpSettings settings;
  private Connection connection;
  private Channel channel;

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
    if (channel == null || !channel.isOpen()) {
      channel = connection.createChannel();
    }
    long ready = channel.queueDeclarePassive(settings.queue()).getMessageCount();
    for (int i = 1; i < AmqpSettings.MAX_PARTITIONS; i++) {
      try {
        ready += channel.queueDeclarePassive(settings.partition(i).queue()).getMessageCount();
      } catch (IOException e) {
        break; // no such partition: the channel is closed, and reopened on the next sample
      }
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
