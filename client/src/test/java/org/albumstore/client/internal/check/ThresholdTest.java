package org.albumstore.client.internal.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.albumstore.client.TypeStats;
import org.junit.jupiter.api.Test;

class ThresholdTest {
  private static TypeStats row(String type, long ok, long failed, double rate, double p99) {
    return new TypeStats(type, ok + failed, ok, failed, 0, rate, 1, 0.5, 1, 2, p99, p99, p99);
  }

  private static final List<TypeStats> ROWS =
      List.of(row("POST /albums", 990, 10, 495, 80), row("all writes", 3960, 40, 1980, 60));

  @Test
  void aLimitWithoutATypeAppliesToAllWrites() {
    ThresholdResult r = Threshold.parse(Threshold.Metric.MAX_P99, "60").check(ROWS.get(1));
    assertThat(r.scope()).isEqualTo("all writes");
    assertThat(r.value()).isEqualTo(60);
    assertThat(r.passed()).as("a limit equal to the value passes").isTrue();
  }

  @Test
  void eachMetricComparesItsOwnFigureInItsOwnDirection() {
    List<ThresholdResult> results =
        Thresholds.check(
            List.of(
                Threshold.parse(Threshold.Metric.MAX_P99, "POST /albums=79.9"),
                Threshold.parse(Threshold.Metric.MAX_ERROR_RATE, "0.01"),
                Threshold.parse(Threshold.Metric.MAX_ERROR_RATE, "POST /albums=0.005"),
                Threshold.parse(Threshold.Metric.MIN_THROUGHPUT, "2000"),
                Threshold.parse(Threshold.Metric.MIN_THROUGHPUT, "POST /albums=495")),
            ROWS);
    assertThat(results)
        .extracting(ThresholdResult::result)
        .containsExactly("FAIL", "pass", "FAIL", "FAIL", "pass");
    assertThat(results.get(2).value()).isEqualTo(0.01);
    assertThat(Thresholds.allPassed(results)).isFalse();
    assertThat(Thresholds.allPassed(List.of(results.get(1)))).isTrue();
  }
}
