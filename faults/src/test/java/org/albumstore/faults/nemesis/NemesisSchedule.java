package org.albumstore.faults.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seed's schedule of faults for a run of a given length, after Jepsen's generators: the same seed
 * and length give the same schedule, so a run that found a violation can be replayed.
 *
 * <p>The rules, which keep every tier able to recover and every fault meaningful: one fault per
 * tier at a time (faults of different tiers overlap freely, which is the point); every fault healed
 * before the quiet tail, so the run ends with everything up and the checker judges a system that
 * had time to recover; targets drawn among the instances of the tier. Each tier is a lane: the next
 * fault of a lane starts a drawn gap after the previous one is healed.
 */
public final class NemesisSchedule {
  /** No fault in the first seconds: the load and every connection are up first. */
  static final Duration WARM_UP = Duration.ofSeconds(10);

  /** No fault in the last part of the run: everything is healed and has recovered. */
  static final double QUIET_TAIL = 0.25;

  private static final Duration LONGEST_GAP = Duration.ofSeconds(20);

  private final long seed;
  private final Duration length;
  private final List<Fault> faults;

  private NemesisSchedule(long seed, Duration length, List<Fault> faults) {
    this.seed = seed;
    this.length = length;
    this.faults = List.copyOf(faults);
  }

  /**
   * @param length the load's length
   * @param instances how many nodes, servers and consumers there are to pick a target from
   */
  public static NemesisSchedule draw(
      long seed, Duration length, Map<FaultKind.Tier, Integer> instances) {
    SplittableRandom random = new SplittableRandom(seed);
    long lastHeal = (long) (length.toMillis() * (1 - QUIET_TAIL));
    Map<FaultKind.Tier, List<FaultKind>> kinds = new EnumMap<>(FaultKind.Tier.class);
    for (FaultKind k : FaultKind.values()) {
      kinds.computeIfAbsent(k.tier(), t -> new ArrayList<>()).add(k);
    }
    List<Fault> faults = new ArrayList<>();
    for (FaultKind.Tier tier : FaultKind.Tier.values()) {
      int count = instances.getOrDefault(tier, 0);
      if (count == 0) {
        continue;
      }
      long at = WARM_UP.toMillis() + random.nextLong(LONGEST_GAP.toMillis());
      while (true) {
        List<FaultKind> choices = kinds.get(tier);
        FaultKind kind = choices.get(random.nextInt(choices.size()));
        long span =
            kind.shortest().toMillis()
                + random.nextLong(kind.longest().toMillis() - kind.shortest().toMillis() + 1);
        if (at + span > lastHeal) {
          break;
        }
        faults.add(
            new Fault(
                kind, random.nextInt(count), Duration.ofMillis(at), Duration.ofMillis(at + span)));
        at += span + 1_000 + random.nextLong(LONGEST_GAP.toMillis());
      }
    }
    faults.sort(Comparator.comparing(Fault::start));
    return new NemesisSchedule(seed, length, faults);
  }

  /**
   * A schedule of {@code faults} as they are, drawn elsewhere (e.g. the one fault an upgrade's seed
   * picks), for a {@link Nemesis} to play.
   */
  public static NemesisSchedule of(long seed, Duration length, List<Fault> faults) {
    List<Fault> sorted = new ArrayList<>(faults);
    sorted.sort(Comparator.comparing(Fault::start));
    return new NemesisSchedule(seed, length, sorted);
  }

  public long seed() {
    return seed;
  }

  public Duration length() {
    return length;
  }

  /** In the order they start. */
  public List<Fault> faults() {
    return faults;
  }

  /** Pairs of faults broken at the same moment. */
  public int overlappingPairs() {
    int n = 0;
    for (int i = 0; i < faults.size(); i++) {
      for (int j = i + 1; j < faults.size(); j++) {
        if (faults.get(i).overlaps(faults.get(j))) {
          n++;
        }
      }
    }
    return n;
  }

  /** The schedule as a run prints it first. */
  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder(
            String.format(
                "nemesis: seed %d, %d s, %d faults (%d overlapping pairs)%n",
                seed, length.toSeconds(), faults.size(), overlappingPairs()));
    faults.forEach(f -> b.append("  ").append(f).append(System.lineSeparator()));
    return b.toString();
  }
}
