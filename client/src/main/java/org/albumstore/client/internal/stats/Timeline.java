package org.albumstore.client.internal.stats;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.albumstore.client.QueueSample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The once-a-second heartbeat of a run: closes the statistics' interval, appends a {@link
 * TimelineRow} (kept for the chart and streamed to the sink), and prints the progress line.
 *
 * <p>Memory grows by one small row per second (a few hundred bytes), not per request.
 */
public final class Timeline {
  private static final Logger log = LoggerFactory.getLogger(Timeline.class);

  private final RunStatistics stats;
  private final Supplier<QueueSample> queue;
  private final RunClock clock;
  private final Consumer<TimelineRow> sink;
  private final PrintStream progress;
  private final List<IntervalSink> intervalSinks;
  private final List<TimelineRow> rows = new ArrayList<>();
  private ScheduledExecutorService executor;
  private long startNanos;
  private long lastTickNanos;

  /**
   * @param progress where the progress line goes (stderr), or null for none
   */
  public Timeline(
      RunStatistics stats,
      Supplier<QueueSample> queue,
      RunClock clock,
      Consumer<TimelineRow> sink,
      PrintStream progress) {
    this(stats, queue, clock, sink, progress, List.of());
  }

  /**
   * @param intervalSinks also given every interval's histograms (interval logs, rate steps)
   */
  public Timeline(
      RunStatistics stats,
      Supplier<QueueSample> queue,
      RunClock clock,
      Consumer<TimelineRow> sink,
      PrintStream progress,
      List<IntervalSink> intervalSinks) {
    this.intervalSinks = List.copyOf(intervalSinks);
    this.stats = stats;
    this.queue = queue;
    this.clock = clock;
    this.sink = sink;
    this.progress = progress;
  }

  /** Starts ticking; the load starts now. */
  public synchronized void start() {
    startNanos = System.nanoTime();
    lastTickNanos = startNanos;
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "timeline");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleAtFixedRate(this::tickSafely, 1, 1, TimeUnit.SECONDS);
  }

  private void tickSafely() {
    try {
      tick();
    } catch (RuntimeException e) {
      // A scheduled task that throws is silently cancelled; log it, keep the heartbeat alive.
      log.error("timeline tick failed", e);
    }
  }

  synchronized void tick() {
    long now = System.nanoTime();
    RunStatistics.Tick t = stats.tick();
    QueueSample q = queue.get();
    TimelineRow row =
        new TimelineRow(
            (now - startNanos) / 1e9,
            (now - lastTickNanos) / 1e9,
            clock.epochMillis(now),
            t.types(),
            t.writes(),
            q);
    lastTickNanos = now;
    for (IntervalSink s : intervalSinks) {
      s.onInterval(row.elapsedSeconds(), row.intervalSeconds(), t);
    }
    rows.add(row);
    sink.accept(row);
    if (progress != null) {
      progress.println(progressLine(row, t));
    }
  }

  static String progressLine(TimelineRow row, RunStatistics.Tick t) {
    double rate = 0;
    if (row.intervalSeconds() > 0) {
      long n = 0;
      for (IntervalStats s : row.types().values()) {
        n += s.ok() + s.failed();
      }
      rate = n / row.intervalSeconds();
    }
    String depth = row.queue().depthKnown() ? Long.toString(row.queue().depth()) : "n/a";
    return String.format(
        Locale.ROOT,
        "time %.0f s, requests %d, rate %.0f req/s, p99 %.1f ms, failed %d, queue depth %s",
        row.elapsedSeconds(),
        t.completedSoFar(),
        rate,
        t.writesP99SoFarMs(),
        t.failedSoFar(),
        depth);
  }

  /**
   * Stops ticking and takes a last, partial interval, so that everything recorded so far is in the
   * statistics. Call after the load threads have finished.
   *
   * @return every row of the run
   */
  public List<TimelineRow> stop() throws InterruptedException {
    ScheduledExecutorService e;
    synchronized (this) {
      e = executor;
    }
    if (e != null) {
      e.shutdown();
      if (!e.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("timeline thread did not stop within 5 s");
        e.shutdownNow();
      }
    }
    synchronized (this) {
      tick();
      return List.copyOf(rows);
    }
  }
}
