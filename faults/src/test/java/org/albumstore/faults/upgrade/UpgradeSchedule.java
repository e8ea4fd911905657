package org.albumstore.faults.upgrade;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.albumstore.faults.nemesis.Fault;
import org.albumstore.faults.nemesis.FaultKind;

/**
 * A seed's upgrade: the plan's steps with the order of the instances and each step's moment drawn,
 * and one fault from the nemesis's lanes (a broker node paused or a consumer killed) somewhere in
 * the upgrade. The same seed, plan and length give the same schedule, so a run that found a
 * violation can be replayed, as with {@code NemesisSchedule}.
 *
 * <p>The steps are planned in the first {@value #UPGRADE_SHARE} of the load, one per equal slot,
 * each at a drawn moment in the first half of its slot; the rest of the load runs on the final
 * releases, so that what the last step changed (version 3 written and applied, a redrive applied)
 * is read and judged before the load ends; when the steps run late, {@code UpgradeRun} holds the
 * load until a margin after the last. The fault is healed before the last planned step.
 */
public record UpgradeSchedule(
    long seed, UpgradePlan plan, Duration length, List<UpgradeStep> steps, Fault fault) {
  /** No step and no fault in the first seconds: the load and every connection are up first. */
  static final Duration WARM_UP = Duration.ofSeconds(8);

  /** The share of the load in which the steps are planned. */
  static final double UPGRADE_SHARE = 0.6;

  /** The lanes the fault is drawn from. */
  static final List<FaultKind> FAULTS = List.of(FaultKind.NODE_PAUSE, FaultKind.CONSUMER_KILL);

  public UpgradeSchedule {
    steps = List.copyOf(steps);
  }

  /**
   * @param consumers how many consumers there are to order and to kill
   * @param servers how many servers there are to order
   * @param nodes how many broker nodes there are to pause
   */
  public static UpgradeSchedule draw(
      long seed, UpgradePlan plan, Duration length, int consumers, int servers, int nodes) {
    SplittableRandom random = new SplittableRandom(seed);
    List<UpgradeStep> order = plan.steps(shuffled(consumers, random), shuffled(servers, random));
    long end = (long) (length.toMillis() * UPGRADE_SHARE);
    long slot = (end - WARM_UP.toMillis()) / order.size();
    if (slot <= 0) {
      throw new IllegalArgumentException("a load of " + length + " is too short to upgrade in");
    }
    List<UpgradeStep> steps = new ArrayList<>();
    for (int k = 0; k < order.size(); k++) {
      UpgradeStep s = order.get(k);
      long at = WARM_UP.toMillis() + k * slot + random.nextLong(Math.max(1, slot / 2));
      steps.add(new UpgradeStep(s.action(), s.target(), s.to(), Duration.ofMillis(at)));
    }
    FaultKind kind = FAULTS.get(random.nextInt(FAULTS.size()));
    int target = random.nextInt(kind == FaultKind.NODE_PAUSE ? nodes : consumers);
    long span =
        kind.shortest().toMillis()
            + random.nextLong(kind.longest().toMillis() - kind.shortest().toMillis() + 1);
    long lastStep = steps.get(steps.size() - 1).at().toMillis();
    long start =
        WARM_UP.toMillis() + random.nextLong(Math.max(1, lastStep - span - WARM_UP.toMillis()));
    Fault fault =
        new Fault(kind, target, Duration.ofMillis(start), Duration.ofMillis(start + span));
    return new UpgradeSchedule(seed, plan, length, steps, fault);
  }

  private static List<Integer> shuffled(int n, SplittableRandom random) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      out.set(i, out.set(j, out.get(i)));
    }
    return out;
  }

  /** The schedule as a run prints it first. */
  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder(
            String.format(
                "upgrade: plan %s, seed %d, %d s of load, %d steps (%s)%n",
                plan.label(), seed, length.toSeconds(), steps.size(), plan.description()));
    steps.forEach(s -> b.append("  ").append(s).append(System.lineSeparator()));
    b.append("  fault: ").append(fault).append(System.lineSeparator());
    return b.toString();
  }
}
