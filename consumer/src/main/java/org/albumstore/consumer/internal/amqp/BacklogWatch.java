package org.albumstore.consumer.internal.amqp;

import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.log.FailureStreak;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the write stream holds a backlog: more ready messages, over every partition the consumer
 * consumes ({@link Topology#depths}), than its workers take in one round of full batches. Asked
 * every {@value #PERIOD_MILLIS} ms with passive declares, on a connection of its own that never
 * publishes, so a memory or disk alarm does not block it. Until the first answer, and while the
 * broker does not answer, there is none: batches are then cut at once, as at a low rate.
 *
 * <p>Why the consumer wants to know (consumer/README.md, "Batches"): while a backlog drains, the
 * broker's deliveries, not the database, set the pace, and a worker that commits what has arrived
 * commits small batches whose statements and commits take CPU from the broker on a shared machine.
 */
public final class BacklogWatch implements BooleanSupplier, AutoCloseable {
  static final long PERIOD_MILLIS = 1000;

  private static final Logger log = LoggerFactory.getLogger(BacklogWatch.class);
  private static final int CLOSE_MILLIS = 2000;

  private final Connection connection;
  private final AmqpSettings amqp;
  private final long threshold;
  private final long waitMillis;
  private final ScheduledExecutorService timer;
  private volatile boolean backlog;
  private final FailureStreak failures = new FailureStreak();

  private BacklogWatch(Connection connection, AmqpSettings amqp, long threshold, long waitMillis) {
    this.connection = connection;
    this.amqp = amqp;
    this.threshold = threshold;
    this.waitMillis = waitMillis;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "albumstore-backlog-watch");
              t.setDaemon(true); // a safety net only: close() ends it
              return t;
            });
  }

  /**
   * Starts polling on {@code connection}, which it owns from now on.
   *
   * @param threshold more ready messages than this is a backlog
   * @param waitMillis how long a partial batch then waits (for the log lines)
   */
  public static BacklogWatch start(
      Connection connection, AmqpSettings amqp, long threshold, long waitMillis) {
    BacklogWatch watch = unstarted(connection, amqp, threshold, waitMillis);
    watch.timer.scheduleWithFixedDelay(watch::poll, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    return watch;
  }

  /** A watch that polls only when {@link #poll} is called: for the tests. */
  static BacklogWatch unstarted(
      Connection connection, AmqpSettings amqp, long threshold, long waitMillis) {
    return new BacklogWatch(connection, amqp, threshold, waitMillis);
  }

  /** True while the last answer was a backlog. */
  @Override
  public boolean getAsBoolean() {
    return backlog;
  }

  /** Reads the ready messages once and updates the answer. */
  void poll() {
    try {
      long ready = readyMessages();
      if (failures.succeeded().isPresent()) {
        log.info("the backlog watch reads the queue depth again ({} ready)", ready);
      }
      update(ready > threshold, ready);
    } catch (IOException | TimeoutException | RuntimeException e) {
      update(false, -1);
      if (failures.failed()) {
        log.warn("the backlog watch cannot read the queue depth ({}); batches are cut at once", e);
      }
    }
  }

  private long readyMessages() throws IOException, TimeoutException {
    long ready = 0;
    for (long n : Topology.depths(connection, amqp).values()) {
      ready += Math.max(0, n);
    }
    return ready;
  }

  private void update(boolean now, long ready) {
    if (now && !backlog) {
      log.info(
          "a backlog of {} messages (more than {}): partial batches wait up to {} ms to fill",
          ready,
          threshold,
          waitMillis);
    } else if (!now && backlog && ready >= 0) {
      log.info("the backlog is down to {} messages: batches are cut at once again", ready);
    }
    backlog = now;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      if (connection.isOpen()) {
        connection.close(CLOSE_MILLIS);
      }
    } catch (IOException | RuntimeException e) {
      log.debug("closing the backlog watch's connection", e);
    }
  }
}
