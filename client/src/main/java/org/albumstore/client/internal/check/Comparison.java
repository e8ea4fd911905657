package org.albumstore.client.internal.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.albumstore.client.TypeStats;

/**
 * This run beside a baseline run ({@code --baseline}): each figure of both and the change, flagged
 * when it is larger than the two runs' noise.
 *
 * <p>The noise comes from the per-second timeline: where a figure has a per-second series in both
 * runs (req/s, p50 and p99 of each row), the change is flagged when it exceeds twice the standard
 * error of the difference of the two runs' per-second means, {@code 2 sqrt(sd1²/n1 + sd2²/n2)}.
 * Seconds of a run are not independent, so this is a rough guard against reading noise as a change,
 * not a significance test. Figures without a series (p99.9, max, failed) are shown unflagged.
 *
 * @param baselineRunId the baseline's run ID
 * @param rows one per figure
 */
public record Comparison(String baselineRunId, String baselineFile, List<Row> rows) {

  /** Beyond the noise: the change is flagged. */
  public static final String CHANGED = "CHANGED";

  /** Within the noise. */
  public static final String NOISE = "within noise";

  /** No per-second series to judge by. */
  public static final String UNKNOWN = "";

  /**
   * @param changePercent (this - baseline) / baseline in %, NaN when the baseline is 0
   * @param verdict {@link #CHANGED}, {@link #NOISE} or {@link #UNKNOWN}
   */
  public record Row(
      String row,
      String figure,
      double baseline,
      double current,
      double changePercent,
      String verdict) {}

  /**
   * @param baselineSeconds per-second series of the baseline, keyed as {@link Timelines#series}
   * @param currentSeconds the same of this run
   */
  public static Comparison of(
      String baselineRunId,
      String baselineFile,
      List<TypeStats> baseline,
      Map<String, double[]> baselineSeconds,
      List<TypeStats> current,
      Map<String, double[]> currentSeconds) {
    List<Row> rows = new ArrayList<>();
    for (TypeStats now : current) {
      TypeStats before =
          baseline.stream().filter(b -> b.type().equals(now.type())).findFirst().orElse(null);
      if (before == null || (before.count() == 0 && now.count() == 0)) {
        continue;
      }
      String t = now.type();
      add(rows, t, "req/s", before.throughput(), now.throughput(), baselineSeconds, currentSeconds);
      add(rows, t, "mean ms", before.meanMs(), now.meanMs(), null, null);
      add(rows, t, "p50 ms", before.p50Ms(), now.p50Ms(), baselineSeconds, currentSeconds);
      add(rows, t, "p99 ms", before.p99Ms(), now.p99Ms(), baselineSeconds, currentSeconds);
      add(rows, t, "p99.9 ms", before.p999Ms(), now.p999Ms(), null, null);
      add(rows, t, "max ms", before.maxMs(), now.maxMs(), null, null);
      add(rows, t, "failed", before.failed(), now.failed(), null, null);
    }
    return new Comparison(baselineRunId, baselineFile, List.copyOf(rows));
  }

  private static void add(
      List<Row> rows,
      String type,
      String figure,
      double before,
      double now,
      Map<String, double[]> beforeSeconds,
      Map<String, double[]> nowSeconds) {
    double change = before == 0 ? Double.NaN : (now - before) / before * 100;
    String verdict = UNKNOWN;
    if (beforeSeconds != null && nowSeconds != null) {
      String key = Timelines.key(type, figure);
      verdict = verdict(beforeSeconds.get(key), nowSeconds.get(key), now - before);
    }
    rows.add(new Row(type, figure, before, now, change, verdict));
  }

  /** {@link #CHANGED} when {@code delta} exceeds twice the standard error of the difference. */
  static String verdict(double[] a, double[] b, double delta) {
    if (a == null || b == null || a.length < 2 || b.length < 2) {
      return UNKNOWN;
    }
    double se = Math.sqrt(variance(a) / a.length + variance(b) / b.length);
    return Math.abs(delta) > 2 * se ? CHANGED : NOISE;
  }

  static double variance(double[] v) {
    double mean = 0;
    for (double x : v) {
      mean += x;
    }
    mean /= v.length;
    double sum = 0;
    for (double x : v) {
      sum += (x - mean) * (x - mean);
    }
    return sum / (v.length - 1);
  }
}
