package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RampRatePacerTest {
  @Test
  void theRateRisesLinearlyOverTheRampAndStaysAtItsEnd() {
    // 100/s to 300/s over 10 s: 2,000 slots in the ramp, then 300/s.
    RampRatePacer p = new RampRatePacer(100, 300, Duration.ofSeconds(10), 0);
    assertThat(p.dueOffsetNanos(0)).isZero();
    // The first slots come at about the starting rate, 10 ms apart.
    assertThat(p.dueOffsetNanos(1)).isBetween(9_990_000L, 10_000_000L);
    // Halfway in time (5 s): 100 x 5 + 20 x 25 / 2 = 750 slots.
    assertThat(p.dueOffsetNanos(750)).isBetween(4_999_999_000L, 5_000_001_000L);
    assertThat(p.dueOffsetNanos(2000)).isBetween(9_999_999_000L, 10_000_001_000L);
    assertThat(p.dueOffsetNanos(2300)).isBetween(10_999_999_000L, 11_000_001_000L);
  }

  @Test
  void aFallingRampAndAFlatOneWorkToo() {
    RampRatePacer down = new RampRatePacer(300, 100, Duration.ofSeconds(10), 0);
    assertThat(down.dueOffsetNanos(2000)).isBetween(9_999_999_000L, 10_000_001_000L);
    assertThat(down.dueOffsetNanos(1)).isBetween(3_330_000L, 3_340_000L);
    RampRatePacer flat = new RampRatePacer(50, 50, Duration.ofSeconds(2), 0);
    assertThat(flat.dueOffsetNanos(25)).isEqualTo(500_000_000L);
    assertThatThrownBy(() -> new RampRatePacer(0, 10, Duration.ofSeconds(1), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
