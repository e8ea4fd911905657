package org.albumstore.faults.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumMap;
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
   * The lanes added later (instances added, the database failover, the disk, the database's speed)
   * are drawn after the older ones: a seed's faults of the older tiers are what they were before a
   * lane existed, so earlier runs' schedules stay comparable.
   */
  @Test
  void aLaneAddedLaterLeavesTheOlderLanesAsTheyWere() {
    for (FaultKind.Tier lane :
        List.of(
            FaultKind.Tier.SCALE,
            FaultKind.Tier.DATABASE,
            FaultKind.Tier.DISK,
            FaultKind.Tier.DATABASE_SPEED)) {
      Map<FaultKind.Tier, Integer> with = new EnumMap<>(FaultKind.Tier.class);
      for (FaultKind.Tier t : FaultKind.Tier.values()) {
        if (t.compareTo(lane) <= 0) {
          with.put(t, CLUSTER.getOrDefault(t, 1));
        }
      }
      Map<FaultKind.Tier, Integer> without = new EnumMap<>(with);
      without.remove(lane);
      for (long seed = 0; seed < 100; seed++) {
        NemesisSchedule a = NemesisSchedule.draw(seed, Duration.ofMinutes(10), with);
        NemesisSchedule b = NemesisSchedule.draw(seed, Duration.ofMinutes(10), without);
        assertThat(a.faults())
            .filteredOn(f -> f.kind().tier() != lane)
            .as("lane %s, seed %d", lane, seed)
            .isEqualTo(b.faults());
        assertThat(a.faults()).anyMatch(f -> f.kind().tier() == lane);
      }
    }
  }

  @Test
  void aTierWithoutInstancesGetsNoFault() {
    NemesisSchedule s =
        NemesisSchedule.draw(7, Duration.ofMinutes(5), Map.of(FaultKind.Tier.SERVER, 1));
    assertThat(s.faults()).isNotEmpty().allMatch(f -> f.kind().tier() == FaultKind.Tier.SERVER);
  }
}
