package org.albumstore.client.internal.stats;

import org.HdrHistogram.Histogram;

/**
 * The one place that fixes the latency histogram's unit and range, so every histogram of the run
 * can be added to every other.
 *
 * <p>Unit: microseconds. Range: 1 µs to 1 hour at 3 significant digits, i.e. every value is kept to
 * within 0.1 % (values below 2,048 µs exactly). Memory is a fixed ~200 KB per histogram however
 * many values are recorded: this is what keeps the client flat over a 30-minute run where a list of
 * samples would grow by hundreds of MB.
 */
public final class Latencies {
  public static final long HIGHEST_MICROS = 3_600_000_000L;
  public static final int SIGNIFICANT_DIGITS = 3;

  private Latencies() {}

  public static Histogram newHistogram() {
    return new Histogram(1, HIGHEST_MICROS, SIGNIFICANT_DIGITS);
  }

  /** Nanoseconds to the recorded unit, clamped into the histogram's range. */
  public static long toRecordable(long nanos) {
    long micros = Math.round(nanos / 1_000.0);
    return Math.max(1, Math.min(HIGHEST_MICROS, micros));
  }

  public static double millis(long micros) {
    return micros / 1_000.0;
  }

  /** A percentile in milliseconds; 0 for an empty histogram. */
  public static double percentileMs(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : millis(h.getValueAtPercentile(percentile));
  }
}
