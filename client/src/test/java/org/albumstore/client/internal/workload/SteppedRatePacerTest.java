package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteppedRatePacerTest {
  @Test
  void eachStepHasItsOwnRateAndTheLastOneGoesOn() {
    // 10/s for 2 s (slots 0-19), then 100/s for 2 s (slots 20-219), then 1000/s.
    SteppedRatePacer p =
        new SteppedRatePacer(List.of(10.0, 100.0, 1000.0), Duration.ofSeconds(2), 0);
    assertThat(p.dueOffsetNanos(0)).isZero();
    assertThat(p.dueOffsetNanos(1)).isEqualTo(100_000_000L);
    assertThat(p.dueOffsetNanos(19)).isEqualTo(1_900_000_000L);
    assertThat(p.dueOffsetNanos(20)).isEqualTo(2_000_000_000L);
    assertThat(p.dueOffsetNanos(21)).isEqualTo(2_010_000_000L);
    assertThat(p.dueOffsetNanos(220)).isEqualTo(4_000_000_000L);
    assertThat(p.dueOffsetNanos(2220)).isEqualTo(6_000_000_000L);
  }

  @Test
  void slotsInThePastAreDueAtOnceWithTheirScheduledTime() throws Exception {
    long start = System.nanoTime() - 10_000_000_000L;
    SteppedRatePacer p = new SteppedRatePacer(List.of(1.0, 2.0), Duration.ofSeconds(1), start);
    assertThat(p.awaitNext()).isEqualTo(start);
    assertThat(p.awaitNext()).isEqualTo(start + 1_000_000_000L);
    assertThat(p.awaitNext()).isEqualTo(start + 1_500_000_000L);
  }
}
