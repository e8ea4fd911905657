package org.albumstore.client.internal.tiers;

import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One timer as Prometheus exposes it ({@code _count}, {@code _sum} in seconds, cumulative {@code
 * _bucket}s by upper bound {@code le}), or the difference of two such readings: what happened
 * between two scrapes, e.g. during one run.
 *
 * <p>Quantiles are estimated the way Prometheus' {@code histogram_quantile} does: find the bucket
 * that holds the rank and interpolate linearly inside it. The error is bounded by the bucket's
 * width (Micrometer's buckets are 10–30 % apart in this range), which is plenty to tell tiers
 * apart.
 *
 * @param count samples
 * @param sumSeconds their total
 * @param buckets cumulative counts by upper bound in seconds, the last one +Inf
 */
public record Histogram(double count, double sumSeconds, NavigableMap<Double, Double> buckets) {
  public static final Histogram EMPTY = new Histogram(0, 0, new TreeMap<>());

  public Histogram {
    buckets = Collections.unmodifiableNavigableMap(new TreeMap<>(buckets));
  }

  /**
   * This reading minus an earlier one of the same timer (counts only grow, so never negative). A
   * bound the earlier reading lacks counts what it had at the next lower bound: its samples were
   * all at or below that.
   */
  public Histogram minus(Histogram earlier) {
    TreeMap<Double, Double> b = new TreeMap<>();
    for (Map.Entry<Double, Double> e : buckets.entrySet()) {
      Map.Entry<Double, Double> before = earlier.buckets.floorEntry(e.getKey());
      b.put(e.getKey(), e.getValue() - (before == null ? 0.0 : before.getValue()));
    }
    return new Histogram(count - earlier.count, sumSeconds - earlier.sumSeconds, b);
  }

  public boolean isEmpty() {
    return count <= 0;
  }

  /** Mean in milliseconds, or null without samples. */
  public Double meanMs() {
    return isEmpty() ? null : sumSeconds / count * 1000.0;
  }

  /**
   * The {@code q} quantile in milliseconds, or null without samples or buckets. A rank in the +Inf
   * bucket is reported as the highest finite bound (Prometheus does the same).
   */
  public Double quantileMs(double q) {
    if (isEmpty() || buckets.isEmpty()) {
      return null;
    }
    double total = buckets.lastEntry().getValue();
    if (total <= 0) {
      return null;
    }
    double rank = q * total;
    double lower = 0;
    double below = 0;
    for (Map.Entry<Double, Double> e : buckets.entrySet()) {
      double le = e.getKey();
      double cumulative = e.getValue();
      if (cumulative >= rank) {
        if (Double.isInfinite(le)) {
          return lower * 1000.0;
        }
        double inBucket = cumulative - below;
        double fraction = inBucket <= 0 ? 1.0 : (rank - below) / inBucket;
        return (lower + (le - lower) * fraction) * 1000.0;
      }
      lower = le;
      below = cumulative;
    }
    return lower * 1000.0;
  }
}
