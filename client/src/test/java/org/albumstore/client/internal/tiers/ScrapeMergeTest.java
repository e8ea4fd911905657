package org.albumstore.client.internal.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tier of several instances, merged: means weighted by the instances' counts, quantiles from the
 * summed buckets. The two instances here differ on purpose: a busy fast one and an idle slow one,
 * where an average of their figures would be far off.
 */
class ScrapeMergeTest {
  private static final String BASE = "albumstore_write_stage_seconds";

  /** {@code fast} samples of 5 ms and {@code slow} of 900 ms, in the buckets 0.01, 1 and +Inf. */
  private static Scrape instance(int fast, int slow) {
    double sum = fast * 0.005 + slow * 0.9;
    return Scrape.parse(
        String.join(
            "\n",
            BASE + "_bucket{stage=\"confirm\",le=\"0.01\"} " + fast,
            BASE + "_bucket{stage=\"confirm\",le=\"1.0\"} " + (fast + slow),
            BASE + "_bucket{stage=\"confirm\",le=\"+Inf\"} " + (fast + slow),
            BASE + "_count{stage=\"confirm\"} " + (fast + slow),
            BASE + "_sum{stage=\"confirm\"} " + sum,
            BASE + "_bucket{stage=\"respond\",le=\"+Inf\"} 7",
            BASE + "_count{stage=\"respond\"} 7",
            BASE + "_sum{stage=\"respond\"} 7.0",
            ""));
  }

  @Test
  void theMeanIsWeightedByCountsAndTheP99ComesFromTheMergedBuckets() {
    Scrape busyFast = instance(1000, 0);
    Scrape idleSlow = instance(0, 10);

    Histogram merged =
        Scrape.merge(List.of(busyFast, idleSlow))
            .histogram(BASE, l -> "confirm".equals(l.get("stage")));

    assertThat(merged.count()).isEqualTo(1010);
    // (1000 x 5 + 10 x 900) / 1010 ms, not the instances' means averaged, (5 + 900) / 2.
    assertThat(merged.meanMs()).isCloseTo(14000.0 / 1010, within(1e-6));
    // Rank 999.9 of 1010 lies in the first bucket: at most 10 ms, where the average of the
    // instances' p99s would be about 500 ms.
    assertThat(merged.quantileMs(0.99)).isLessThanOrEqualTo(10.0);
    double averageOfP99s =
        (histogram(busyFast).quantileMs(0.99) + histogram(idleSlow).quantileMs(0.99)) / 2;
    assertThat(averageOfP99s).isGreaterThan(400.0);
  }

  @Test
  void aStageOfEveryInstanceIsCountedOnceAndNoOtherStageJoinsIt() {
    Scrape merged = Scrape.merge(List.of(instance(3, 1), instance(2, 0), instance(0, 4)));

    assertThat(merged.histogram(BASE, l -> "confirm".equals(l.get("stage"))).count()).isEqualTo(10);
    assertThat(merged.histogram(BASE, l -> "respond".equals(l.get("stage"))).count()).isEqualTo(21);
  }

  private static Histogram histogram(Scrape s) {
    return s.histogram(BASE, l -> "confirm".equals(l.get("stage")));
  }
}
