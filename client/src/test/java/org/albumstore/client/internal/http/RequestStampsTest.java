package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RequestStampsTest {
  @Test
  void theFirstAttemptAndThenOneInSixteenCarryTheHeader() {
    assertThat(IntStream.range(0, 48).filter(RequestStamps::due).boxed())
        .containsExactly(0, 16, 32);
  }

  @Test
  void aSharedCounterSamplesTheSameWay() {
    RequestStamps.Shared shared = new RequestStamps.Shared();
    assertThat(IntStream.range(0, 33).filter(i -> shared.due()).count()).isEqualTo(3);
  }

  @Test
  void theSampleStaysRegularWhenTheCounterWraps() {
    assertThat(RequestStamps.due(Integer.MIN_VALUE)).isTrue(); // 2^31 is a multiple of 16
    assertThat(RequestStamps.due(-1)).isFalse();
  }
}
