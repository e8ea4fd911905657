package org.albumstore.faults.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Operation;
import org.junit.jupiter.api.Test;

class FaultImpactTest {
  private static final long S = 1_000_000; // µs

  private static Operation like(int line, String key, long sent, long end, String outcome) {
    return new Operation(
        line, "t0", RequestType.POST_LIKE, key, "a", sent, end, outcome, -1, -1, false);
  }

  @Test
  void aFaultIsChargedWithTheLongestGapBetween200s_its503s_failuresAndRetries() {
    // A schedule whose first fault is known: draw until one exists, then judge a hand-made history.
    NemesisSchedule schedule =
        NemesisSchedule.draw(3, Duration.ofMinutes(2), Map.of(FaultKind.Tier.SERVER, 1));
    Fault f = schedule.faults().get(0);
    long load = 5 * S; // the load started 5 s after the history's origin
    long start = load + f.start().toNanos() / 1_000;
    List<Operation> ops = new ArrayList<>();
    ops.add(like(1, "k1", start - 2 * S, start - S, "200")); // before: not charged
    ops.add(like(2, "k2", start + S / 10, start + S / 5, "200"));
    ops.add(like(3, "k3", start + S, start + 2 * S, "503"));
    ops.add(like(4, "k3", start + 3 * S, start + 4 * S, "SocketTimeoutException")); // a retry
    ops.add(like(5, "k3", start + 5 * S, start + 5 * S + S / 2, "200")); // a retry; gap 5.3 s
    ops.add(
        like(6, "k1", start + 6 * S, start + 6 * S + S / 10, "200")); // retry of k1, sent before
    History h = new History("run", 0, ops, true, 0);

    FaultImpact impact = FaultImpact.of(schedule, h, load).get(0);

    assertThat(impact.fault()).isEqualTo(f);
    assertThat(impact.longestWithoutOk()).isEqualTo(Duration.ofMillis(5_300));
    assertThat(impact.answered503()).isEqualTo(1);
    assertThat(impact.failed()).isEqualTo(1);
    assertThat(impact.retries()).isEqualTo(3);
  }

  @Test
  void aWindowWithNo200IsUnavailableThroughout() {
    NemesisSchedule schedule =
        NemesisSchedule.draw(3, Duration.ofMinutes(2), Map.of(FaultKind.Tier.SERVER, 1));
    Fault f = schedule.faults().get(0);
    FaultImpact impact =
        FaultImpact.of(schedule, new History("run", 0, List.of(), true, 0), 0).get(0);
    assertThat(impact.longestWithoutOk())
        .isEqualTo(f.heal().minus(f.start()).plusSeconds(FaultImpact.RECOVERY_SECONDS));
  }
}
