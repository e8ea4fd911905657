package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FixedRatePacerTest {
  @Test
  void slotsAreDueOnAFixedScheduleWhateverTheCallersDo() throws Exception {
    long start = System.nanoTime() - 1_000_000_000L; // a second in the past: no waiting at all
    FixedRatePacer pacer = new FixedRatePacer(1000, start); // one slot per ms
    assertThat(pacer.awaitNext()).isEqualTo(start);
    assertThat(pacer.awaitNext()).isEqualTo(start + 1_000_000);
    assertThat(pacer.awaitNext()).isEqualTo(start + 2_000_000);
  }

  @Test
  void aDueTimeInTheFutureIsWaitedFor() throws Exception {
    long start = System.nanoTime() + 5_000_000; // 5 ms ahead
    long due = new FixedRatePacer(10, start).awaitNext();
    assertThat(System.nanoTime()).isGreaterThanOrEqualTo(due);
  }

  @Test
  void theRateMustBePositive() {
    assertThatThrownBy(() -> new FixedRatePacer(0, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
