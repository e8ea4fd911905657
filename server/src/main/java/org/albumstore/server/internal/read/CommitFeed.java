package org.albumstore.server.internal.read;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.CommittedWrites;
import org.albumstore.common.event.InvalidMessageException;
import org.albumstore.server.internal.publish.BrokerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears what the consumers commit: a queue of this server's own, bound to the commits exchange
 * ({@link AmqpSettings#commitsExchange}), whose announcements ({@link CommittedWrites}) fill the
 * {@link ReadCache} and wake the reads waiting for a new album ({@link AlbumWaiters#announced}).
 *
 * <p>On a connection of its own, apart from the publishing one: its deliveries must not queue
 * behind confirms, and its setup is redone after each recovery ({@link
 * BrokerConnector#whenConnected}). The queue is exclusive and auto-deleted (it goes with this
 * server), unacknowledged (a lost announcement costs a database read, never a wrong answer), and on
 * RabbitMQ capped in length, the oldest dropped first, so a server that falls behind is not a
 * growing backlog on the broker.
 */
public final class CommitFeed implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CommitFeed.class);

  /** Announcements the server's queue holds at most (RabbitMQ's {@code x-max-length}). */
  static final int QUEUE_MAX_LENGTH = 10_000;

  private final AmqpSettings amqp;
  private final ReadCache cache;
  private final AlbumWaiters waiters;
  private final BrokerConnector connector;
  private final Counter received;
  private final Counter undecodable;
  private Channel channel;

  /**
   * @param threads makes the threads of this feed's connection (amqp-client's {@code
   *     ConnectionFactory.setThreadFactory}), so that its owner can wait for them to end
   */
  public CommitFeed(
      AmqpSettings amqp,
      ReadCache cache,
      AlbumWaiters waiters,
      MeterRegistry registry,
      ThreadFactory threads) {
    this.amqp = amqp;
    this.cache = cache;
    this.waiters = waiters;
    this.connector =
        new BrokerConnector(
            amqp, "albumstore-server-commits", factory -> factory.setThreadFactory(threads));
    this.received = announcements(registry, "received");
    this.undecodable = announcements(registry, "undecodable");
  }

  private static Counter announcements(MeterRegistry registry, String outcome) {
    return Counter.builder("albumstore.read.announcements")
        .description("Consumers' commit announcements this server received")
        .tag("outcome", outcome)
        .register(registry);
  }

  /** Connects now or, when the broker is not there yet, in the background. */
  public void start() {
    connector.whenConnected(this::subscribe);
    connector.quiet(); // the publishing connection reports the broker's outages
    connector.start();
  }

  private synchronized void subscribe(Connection c) throws IOException {
    if (channel != null) {
      channel.abort(); // the channel of before the recovery, whose consumer is gone
    }
    channel = c.createChannel();
    Map<String, Object> args = new HashMap<>();
    if (Topology.isRabbitMq(channel)) {
      args.put("x-max-length", QUEUE_MAX_LENGTH);
    }
    String queue = channel.queueDeclare("", false, true, true, args).getQueue();
    channel.queueBind(queue, amqp.commitsExchange(), "");
    channel.basicConsume(queue, true, (tag, d) -> heard(d), tag -> {});
    log.info("Hearing the consumers' commits on {} ({})", queue, amqp.commitsExchange());
  }

  private void heard(Delivery d) {
    CommittedWrites c;
    try {
      c = CommittedWrites.decode(d.getBody());
    } catch (InvalidMessageException e) {
      undecodable.increment();
      return;
    }
    received.increment();
    cache.committed(c);
    if (!c.albums().isEmpty()) {
      Map<String, AlbumProfile> albums = new HashMap<>();
      for (CommittedWrites.Album a : c.albums()) {
        albums.put(a.albumId(), a.profile());
      }
      waiters.announced(albums);
    }
  }

  /** True while connected to the broker. */
  public boolean isUp() {
    return connector.isUp();
  }

  @Override
  public void close() {
    connector.close(Duration.ofSeconds(5));
  }
}
