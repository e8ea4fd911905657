package org.albumstore.faults.bluegreen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Operation;
import org.junit.jupiter.api.Test;

class StepImpactTest {
  private static long line;

  private static Operation write(String key, long sent, long end, String outcome) {
    return new Operation(
        ++line, "t0", RequestType.POST_ALBUMS, key, "a", sent, end, outcome, -1, -1, false);
  }

  private static Operation read(long sent, long end) {
    return new Operation(
        ++line, "r0", RequestType.GET_REVIEW, null, "a", sent, end, "200", 0, 0, false);
  }

  @Test
  void aGapIsClippedToTheWindowAndCountsToItsEdges() {
    // 200s at 5, 9 and 30 (ms): in [6, 20] the longest stretch without one is 9 to 20.
    List<Long> oks = List.of(5_000L, 9_000L, 30_000L);
    assertThat(StepImpact.longestGap(oks, 6_000, 20_000)).isEqualTo(Duration.ofMillis(11));
    assertThat(StepImpact.longestGap(oks, 0, 8_000)).isEqualTo(Duration.ofMillis(5));
    assertThat(StepImpact.longestGap(List.of(), 0, 8_000)).isEqualTo(Duration.ofMillis(8));
  }

  @Test
  void readsDoNotHideAGapInTheWritesAndRetriesAreTheKeysSentBefore() {
    History h =
        new History(
            "run",
            0,
            List.of(
                write("k1", 0, 1_000, "503"),
                write("k1", 2_000, 3_000, "200"),
                read(3_000, 4_000),
                read(5_000, 9_000),
                write("k2", 8_000, 10_000, "200")),
            true,
            0);
    StepImpact i = StepImpact.of(h, 1_500, 10_000);
    assertThat(i.longestWithoutOk()).isEqualTo(Duration.ofMillis(5));
    assertThat(i.longestWithoutWriteOk()).isEqualTo(Duration.ofMillis(7));
    assertThat(i.writes()).isEqualTo(2);
    assertThat(i.retries()).isEqualTo(1);
    assertThat(i.answered503()).isZero();
    assertThat(i.writeP99()).isEqualTo(Duration.ofMillis(2));
    assertThat(i.acknowledgedPerSecond()).isCloseTo(2 / 0.0085, within(0.01));
  }
}
