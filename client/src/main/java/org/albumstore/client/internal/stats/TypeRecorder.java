package org.albumstore.client.internal.stats;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latencies and counters of one request type.
 *
 * <p>Writers (hundreds of load threads) record into an HdrHistogram {@link Recorder}: wait-free for
 * them, and it lets one reader swap out an interval histogram without stopping them. That is the
 * per-thread-histograms-merged scheme without the bookkeeping: the Recorder's phaser guarantees
 * that every value lands in exactly one interval. Once a second the timeline thread takes the
 * interval (per-second percentiles) and adds it to the cumulative histogram (the run's
 * percentiles). Counters are {@link LongAdder}s for the same reason: no shared hot cache line.
 */
final class TypeRecorder {
  private final Recorder recorder =
      new Recorder(Latencies.HIGHEST_MICROS, Latencies.SIGNIFICANT_DIGITS);
  private final LongAdder ok = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder failedThisInterval = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> retryCauses = new ConcurrentHashMap<>();

  // Owned by the thread calling tick(); guarded by this.
  private final Histogram cumulative = Latencies.newHistogram();
  private Histogram interval;

  void record(Completion c) {
    if (c.ok()) {
      recorder.recordValue(Latencies.toRecordable(c.latencyNanos()));
      ok.increment();
    } else {
      failed.increment();
      failedThisInterval.increment();
      failures.computeIfAbsent(c.code(), k -> new LongAdder()).increment();
    }
    if (c.attempts() > 1) {
      retries.add(c.attempts() - 1L);
    }
  }

  void retried(String code) {
    retryCauses.computeIfAbsent(code, k -> new LongAdder()).increment();
  }

  /**
   * Closes the current interval: returns its histogram (valid until the next tick) after adding it
   * to the cumulative one.
   */
  synchronized Histogram tick() {
    interval = recorder.getIntervalHistogram(interval);
    cumulative.add(interval);
    return interval;
  }

  synchronized long failedSinceLastTick() {
    return failedThisInterval.sumThenReset();
  }

  /** A copy of everything recorded up to the last tick. */
  synchronized Histogram cumulativeCopy() {
    return cumulative.copy();
  }

  long ok() {
    return ok.sum();
  }

  long failed() {
    return failed.sum();
  }

  long retries() {
    return retries.sum();
  }

  Map<String, Long> failures() {
    return snapshot(failures);
  }

  Map<String, Long> retryCauses() {
    return snapshot(retryCauses);
  }

  private static Map<String, Long> snapshot(Map<String, LongAdder> m) {
    Map<String, Long> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
