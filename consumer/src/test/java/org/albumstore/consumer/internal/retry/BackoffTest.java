package org.albumstore.consumer.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void doublesFromHundredMillisUpToFiveSeconds() {
    Backoff b = new Backoff();
    List<Long> delays = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      delays.add(b.nextDelayMillis());
    }
    assertThat(delays).containsExactly(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L, 5000L);
  }

  @Test
  void resetStartsOver() {
    Backoff b = new Backoff(10, 100);
    b.nextDelayMillis();
    b.nextDelayMillis();
    b.reset();
    assertThat(b.nextDelayMillis()).isEqualTo(10);
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new Backoff(0, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(10, 5)).isInstanceOf(IllegalArgumentException.class);
  }
}
