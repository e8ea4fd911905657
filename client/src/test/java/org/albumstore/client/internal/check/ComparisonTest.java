package org.albumstore.client.internal.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.albumstore.client.TypeStats;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  private static TypeStats writes(double rate, double p99) {
    return new TypeStats("all writes", 100, 100, 0, 0, rate, 1, 0.5, 1, 2, p99, p99, p99);
  }

  @Test
  void aChangeBeyondThePerSecondNoiseIsFlaggedAndOneWithinItIsNot() {
    double[] steady = {1000, 1010, 990, 1005, 995};
    double[] faster = {1500, 1490, 1510, 1505, 1495};
    double[] noisy = {500, 1500, 700, 1300, 1000};
    assertThat(Comparison.verdict(steady, faster, 500)).isEqualTo(Comparison.CHANGED);
    assertThat(Comparison.verdict(noisy, noisy, 100)).isEqualTo(Comparison.NOISE);
    assertThat(Comparison.verdict(steady, new double[] {1}, 500)).isEqualTo(Comparison.UNKNOWN);
  }

  @Test
  void everyFigureOfARowIsComparedWithItsChangeInPercent() {
    Map<String, double[]> before =
        Map.of(
            Timelines.key("all writes", "req/s"), new double[] {1000, 1010, 990},
            Timelines.key("all writes", "p99 ms"), new double[] {10, 10, 10});
    Map<String, double[]> after =
        Map.of(
            Timelines.key("all writes", "req/s"), new double[] {2000, 2010, 1990},
            Timelines.key("all writes", "p99 ms"), new double[] {10, 10, 10});
    Comparison c =
        Comparison.of(
            "base",
            "b/summary.json",
            List.of(writes(1000, 10)),
            before,
            List.of(writes(2000, 10)),
            after);
    assertThat(c.rows())
        .extracting(Comparison.Row::figure)
        .containsExactly("req/s", "mean ms", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "failed");
    Comparison.Row rate = c.rows().get(0);
    assertThat(rate.changePercent()).isEqualTo(100.0);
    assertThat(rate.verdict()).isEqualTo(Comparison.CHANGED);
    assertThat(c.rows().get(3).verdict()).isEqualTo(Comparison.NOISE);
    assertThat(c.rows().get(4).verdict()).as("no per-second p99.9").isEqualTo(Comparison.UNKNOWN);
    assertThat(c.rows().get(6).changePercent()).as("failed 0 -> 0").isNaN();
  }
}
