package org.albumstore.consumer.internal.metrics;

import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.albumstore.consumer.ConsumerCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one line per interval with the applied rates since the previous line, and a last line with
 * the totals when closed. The rates come from differences of {@link ConsumerMetrics} snapshots, so
 * the hot path does nothing for them.
 */
public final class RateReporter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RateReporter.class);

  private final ConsumerMetrics metrics;
  private final ScheduledExecutorService timer;
  private ConsumerCounters previous;
  private long previousNanos;

  public RateReporter(ConsumerMetrics metrics, int intervalSeconds) {
    this.metrics = metrics;
    this.previous = metrics.snapshot();
    this.previousNanos = System.nanoTime();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "albumstore-consumer-stats");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleAtFixedRate(this::report, intervalSeconds, intervalSeconds, TimeUnit.SECONDS);
  }

  private synchronized void report() {
    try {
      ConsumerCounters now = metrics.snapshot();
      long nanos = System.nanoTime();
      log.info(line(previous, now, (nanos - previousNanos) / 1e9));
      previous = now;
      previousNanos = nanos;
    } catch (RuntimeException e) {
      // A failure here must not cancel the schedule silently; say why once per occurrence.
      log.warn("rate report failed", e);
    }
  }

  static String line(ConsumerCounters a, ConsumerCounters b, double seconds) {
    double s = Math.max(seconds, 1e-9);
    long messages = b.messagesApplied() - a.messagesApplied();
    long transactions = b.transactions() - a.transactions();
    return String.format(
        Locale.ROOT,
        "applied %.0f msg/s, %.0f reviews/s, %.0f albums/s, avg batch %.1f msgs over %.1f s;"
            + " dead-lettered %d, redelivered %d (totals: %d msgs, %d reviews, %d albums)",
        messages / s,
        (b.reviewsApplied() - a.reviewsApplied()) / s,
        (b.albumsInserted() - a.albumsInserted()) / s,
        transactions == 0 ? 0.0 : (double) messages / transactions,
        seconds,
        b.deadLettered() - a.deadLettered(),
        b.redelivered() - a.redelivered(),
        b.messagesApplied(),
        b.reviewsApplied(),
        b.albumsInserted());
  }

  /** Stops the timer (bounded wait) and logs the rates of the last partial interval. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      if (!timer.awaitTermination(2, TimeUnit.SECONDS)) {
        log.warn("stats timer did not stop within 2 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    report();
  }
}
