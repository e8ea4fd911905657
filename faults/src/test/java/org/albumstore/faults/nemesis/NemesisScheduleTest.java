package org.albumstore.faults.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class NemesisScheduleTest {
  private static final Map<FaultKind.Tier, Integer> CLUSTER =
      Map.of(
          FaultKind.Tier.BROKER, 3,
          FaultKind.Tier.SERVER, 2,
          FaultKind.Tier.CONSUMER, 2,
          FaultKind.Tier.SCALE, 1);

  @Test
  void theSameSeedReplaysTheSameSchedule_anotherSeedDrawsAnother() {
    Duration tenMinutes = Duration.ofMinutes(10);
    NemesisSchedule a = NemesisSchedule.draw(42, tenMinutes, CLUSTER);
    NemesisSchedule b = NemesisSchedule.draw(42, tenMinutes, CLUSTER);
    assertThat(b.faults()).isEqualTo(a.faults());
    assertThat(b.toString()).isEqualTo(a.toString());
    assertThat(NemesisSchedule.draw(43, tenMinutes, CLUSTER).faults()).isNotEqualTo(a.faults());
  }

  @Test
  void everyFaultIsHealedBeforeTheQuietTailAndAfterTheWarmUp_oneFaultPerTierAtATime() {
    for (long seed = 0; seed < 500; seed++) {
      for (Duration length : List.of(Duration.ofMinutes(2), Duration.ofMinutes(10))) {
        NemesisSchedule s = NemesisSchedule.draw(seed, length, CLUSTER);
        long lastHeal = (long) (length.toMillis() * (1 - NemesisSchedule.QUIET_TAIL));
        for (Fault f : s.faults()) {
          assertThat(f.start()).isGreaterThanOrEqualTo(NemesisSchedule.WARM_UP);
          assertThat(f.heal().toMillis()).isLessThanOrEqualTo(lastHeal);
          assertThat(f.heal().minus(f.start())).isBetween(f.kind().shortest(), f.kind().longest());
          assertThat(f.target()).isBetween(0, CLUSTER.get(f.kind().tier()) - 1);
          for (Fault g : s.faults()) {
            if (f != g && f.kind().tier() == g.kind().tier()) {
              assertThat(f.overlaps(g)).as(seed + ": " + f + " and " + g).isFalse();
            }
          }
        }
      }
    }
  }

  @Test
  void aShortRunOfAFixedSeedHasOverlappingFaultsOfSeveralKinds() {
    // What a short run in the suite would need: at least 6 faults of at least 4 kinds, 2
    // overlapping.
    long seeds =
        java.util.stream.LongStream.range(0, 200)
            .filter(
                seed -> {
                  NemesisSchedule s = NemesisSchedule.draw(seed, Duration.ofMinutes(2), CLUSTER);
                  return s.faults().size() >= 6
                      && s.faults().stream().map(Fault::kind).collect(Collectors.toSet()).size()
                          >= 4
                      && s.overlappingPairs() >= 2;
                })
            .count();
    assertThat(seeds).as("seeds of 200 whose 2-minute schedule qualifies").isGreaterThan(20);
  }

  /**
   * The scale lane (instances added) is drawn after the others: a seed's faults of the other tiers
   * are what they were before that lane existed, so earlier runs' schedules stay comparable.
   */
  @Test
  void theScaleLaneLeavesTheOtherLanesAsTheyWere() {
    Map<FaultKind.Tier, Integer> withoutScale = new java.util.EnumMap<>(CLUSTER);
    withoutScale.remove(FaultKind.Tier.SCALE);
    for (long seed = 0; seed < 100; seed++) {
      NemesisSchedule with = NemesisSchedule.draw(seed, Duration.ofMinutes(10), CLUSTER);
      NemesisSchedule without = NemesisSchedule.draw(seed, Duration.ofMinutes(10), withoutScale);
      assertThat(with.faults())
          .filteredOn(f -> f.kind().tier() != FaultKind.Tier.SCALE)
          .as("seed %d", seed)
          .isEqualTo(without.faults());
      assertThat(with.faults()).anyMatch(f -> f.kind().tier() == FaultKind.Tier.SCALE);
    }
  }

  @Test
  void aTierWithoutInstancesGetsNoFault() {
    NemesisSchedule s =
        NemesisSchedule.draw(7, Duration.ofMinutes(5), Map.of(FaultKind.Tier.SERVER, 1));
    assertThat(s.faults()).isNotEmpty().allMatch(f -> f.kind().tier() == FaultKind.Tier.SERVER);
  }
}
