package org.albumstore.consumer.internal.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.event.CommittedWrites;
import org.albumstore.common.log.FailureStreak;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Announces each commit on the commits exchange ({@link AmqpSettings#commitsExchange}), so that the
 * servers wake the reads waiting for a new album and refresh what they cache, without asking the
 * database (server/README.md, "The read path").
 *
 * <p>Nothing here may slow or stop the writes:
 *
 * <ul>
 *   <li>The workers only offer to a bounded queue, and an announcement that does not fit is dropped
 *       (counted): the servers fall back to the database for what they do not hear.
 *   <li>One thread publishes, on a connection of its own. During a memory or disk alarm the broker
 *       blocks every connection that publishes; the workers' connections, which acknowledge, are
 *       not among them.
 *   <li>Announcements are not persistent and not confirmed: they are hints, and a lost one costs a
 *       server one database read.
 *   <li>Under load, the commits that queued while one announcement was published go out merged in
 *       the next: fewer messages, the same information.
 * </ul>
 */
public final class CommitAnnouncer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CommitAnnouncer.class);

  /** Announcements waiting for the publishing thread; beyond, they are dropped. */
  static final int QUEUE_CAPACITY = 4096;

  /**
   * Most commits merged into one announcement: under load the thread publishes what queued while it
   * published the last, as one message.
   */
  static final int MERGED_MAX = 64;

  private static final AMQP.BasicProperties PROPERTIES =
      new AMQP.BasicProperties.Builder()
          .contentType("application/json")
          .deliveryMode(1)
          .type(CommittedWrites.MESSAGE_TYPE)
          .build();

  private final AmqpSettings amqp;
  private final Connection connection;
  private final BlockingQueue<CommittedWrites> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  private final Counter published;
  private final Counter dropped;
  private final Thread thread;
  private volatile boolean closed;
  private Channel channel;
  private final FailureStreak failures = new FailureStreak();

  private CommitAnnouncer(AmqpSettings amqp, Connection connection, MeterRegistry registry) {
    this.amqp = amqp;
    this.connection = connection;
    this.published = announcements(registry, "published");
    this.dropped = announcements(registry, "dropped");
    this.thread = new Thread(this::run, connectionName(connection) + "-thread");
    this.thread.setDaemon(true); // a safety net only: close() ends it
  }

  private static Counter announcements(MeterRegistry registry, String outcome) {
    return Counter.builder("albumstore.consumer.announcements")
        .description(
            "Commits announced to the servers (published), or not (dropped: queue full, broker"
                + " unreachable)")
        .tag("outcome", outcome)
        .register(registry);
  }

  private static String connectionName(Connection c) {
    return c.getClientProvidedName() == null ? "albumstore-announcer" : c.getClientProvidedName();
  }

  /**
   * Starts announcing on {@code connection}, which becomes the announcer's own (closed by {@link
   * #close}).
   */
  public static CommitAnnouncer start(
      Connection connection, AmqpSettings amqp, MeterRegistry registry) {
    CommitAnnouncer a = new CommitAnnouncer(amqp, connection, registry);
    a.thread.start();
    return a;
  }

  /** Queues {@code committed} for announcing; never blocks (full: dropped). */
  public void announce(CommittedWrites committed) {
    if (committed.isEmpty()) {
      return;
    }
    if (closed || !queue.offer(committed)) {
      dropped.increment();
    }
  }

  private void run() {
    List<CommittedWrites> pending = new ArrayList<>();
    while (!closed) {
      CommittedWrites next;
      try {
        next = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (next != null) {
        pending.add(next);
        queue.drainTo(pending, MERGED_MAX - 1);
        publish(merge(pending));
        pending.clear();
      }
    }
  }

  /**
   * What queued while the last one was published, as one announcement: the albums of all, and each
   * album's counters at their largest (counters only grow, so the largest is the latest).
   */
  static CommittedWrites merge(List<CommittedWrites> announcements) {
    if (announcements.size() == 1) {
      return announcements.get(0);
    }
    List<CommittedWrites.Album> albums = new ArrayList<>();
    Map<String, CommittedWrites.Counts> counts = new LinkedHashMap<>();
    for (CommittedWrites c : announcements) {
      albums.addAll(c.albums());
      for (CommittedWrites.Counts n : c.counts()) {
        counts.merge(
            n.albumId(),
            n,
            (a, b) ->
                new CommittedWrites.Counts(
                    a.albumId(),
                    Math.max(a.likes(), b.likes()),
                    Math.max(a.dislikes(), b.dislikes())));
      }
    }
    return new CommittedWrites(albums, List.copyOf(counts.values()));
  }

  private void publish(CommittedWrites c) {
    try {
      if (channel == null || !channel.isOpen()) {
        channel = connection.createChannel();
      }
      channel.basicPublish(amqp.commitsExchange(), "", PROPERTIES, c.encode());
      published.increment();
      if (failures.succeeded().isPresent()) {
        log.info("Announcing commits again");
      }
    } catch (IOException | RuntimeException e) {
      // The connection recovers by itself; until then, announcements are dropped.
      dropped.increment();
      if (failures.failed()) {
        log.warn(
            "Cannot announce commits ({}); dropping announcements until the broker is back (the"
                + " servers read the database instead)",
            e.toString());
      }
    }
  }

  /** Stops the thread (what is queued is dropped) and closes the connection. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    dropped.increment(queue.size());
    queue.clear();
    try {
      connection.close(5000);
    } catch (IOException | RuntimeException e) {
      log.debug("closing the announcer's connection: {}", e.toString());
    }
  }
}
