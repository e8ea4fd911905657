package org.albumstore.client.internal.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class HistogramTest {
  private static final double INF = Double.POSITIVE_INFINITY;

  /** Cumulative buckets from pairs (le in ms, count). */
  private static Histogram h(double count, double sumMs, double... leMsAndCumulative) {
    TreeMap<Double, Double> b = new TreeMap<>();
    for (int i = 0; i < leMsAndCumulative.length; i += 2) {
      double le = leMsAndCumulative[i];
      b.put(Double.isInfinite(le) ? le : le / 1000.0, leMsAndCumulative[i + 1]);
    }
    return new Histogram(count, sumMs / 1000.0, b);
  }

  @Test
  void meanIsSumOverCount() {
    assertThat(h(4, 10, 5, 4, INF, 4).meanMs()).isCloseTo(2.5, within(1e-9));
    assertThat(Histogram.EMPTY.meanMs()).isNull();
    assertThat(Histogram.EMPTY.quantileMs(0.99)).isNull();
  }

  @Test
  void quantilesInterpolateLinearlyInsideTheBucketThatHoldsTheRank() {
    // 100 samples: 50 in (0, 1 ms], 40 in (1, 2], 10 in (2, 4].
    Histogram x = h(100, 120, 1, 50, 2, 90, 4, 100, INF, 100);
    assertThat(x.quantileMs(0.5)).isCloseTo(1.0, within(1e-9));
    assertThat(x.quantileMs(0.25)).isCloseTo(0.5, within(1e-9));
    assertThat(x.quantileMs(0.7)).isCloseTo(1.5, within(1e-9));
    assertThat(x.quantileMs(0.99)).isCloseTo(3.8, within(1e-9));
  }

  @Test
  void aRankInTheInfBucketIsTheHighestFiniteBound() {
    Histogram x = h(10, 500, 1, 5, 30_000, 8, INF, 10);
    assertThat(x.quantileMs(0.99)).isCloseTo(30_000, within(1e-6));
  }

  @Test
  void theDifferenceOfTwoReadingsIsWhatHappenedBetweenThem() {
    Histogram before = h(10, 10, 1, 10, 2, 10, INF, 10);
    Histogram after = h(30, 50, 1, 10, 2, 30, 4, 30, INF, 30); // a bucket new since

    Histogram d = after.minus(before);
    assertThat(d.count()).isEqualTo(20);
    assertThat(d.meanMs()).isCloseTo(2.0, within(1e-9));
    assertThat(d.buckets().get(0.001)).isZero();
    assertThat(d.buckets().get(0.002)).isEqualTo(20);
    assertThat(d.buckets().get(0.004)).isEqualTo(20);
    // All 20 new samples are in (1, 2] ms: the p50 is in the middle of that bucket.
    assertThat(d.quantileMs(0.5)).isCloseTo(1.5, within(1e-9));
  }
}
