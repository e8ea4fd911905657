package org.albumstore.client.internal.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StepStatisticsTest {
  private static Histogram of(long micros, int n) {
    Histogram h = Latencies.newHistogram();
    h.recordValueWithCount(micros, n);
    return h;
  }

  @Test
  void intervalsGoToTheStepOfTheirMidpointAndPercentilesComeFromMergedHistograms() {
    StepStatistics s = new StepStatistics(List.of(100.0, 200.0), 2);
    s.add(1.0, 1.0, of(1_000, 100), 0);
    s.add(2.0, 1.0, of(3_000, 100), 1);
    s.add(3.0, 1.0, of(10_000, 200), 0);
    s.add(4.0, 1.0, of(10_000, 190), 2);
    s.add(5.2, 1.2, of(20_000, 10), 0); // past the last step: counts to it
    List<StepRow> rows = s.rows();
    assertThat(rows).hasSize(2);
    StepRow first = rows.get(0);
    assertThat(first.ok()).isEqualTo(200);
    assertThat(first.failed()).isEqualTo(1);
    assertThat(first.rate()).isEqualTo(100.0);
    assertThat(first.p50Ms()).isEqualTo(1.0);
    assertThat(first.p99Ms()).isCloseTo(3.0, org.assertj.core.data.Offset.offset(0.01));
    StepRow second = rows.get(1);
    assertThat(second.targetRate()).isEqualTo(200.0);
    assertThat(second.fromSeconds()).isEqualTo(2.0);
    assertThat(second.ok()).isEqualTo(400);
    assertThat(second.failed()).isEqualTo(2);
    assertThat(second.p999Ms()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(0.02));
  }
}
