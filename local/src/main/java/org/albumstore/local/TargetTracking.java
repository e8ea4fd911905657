package org.albumstore.local;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * The target-tracking rule of an EC2 Auto Scaling policy, for one group, evaluated once per
 * evaluation period (60 s on AWS; a few seconds in the local cluster). Pure: it is given the tier's
 * total (requests in the period, or the backlog) and the group's size, and says the size to have;
 * it starts and stops nothing.
 *
 * <ul>
 *   <li>The metric is the total per instance in service: instances still warming up (started less
 *       than {@code warmupPeriods} ago, AWS's {@code EstimatedInstanceWarmup}) are in the group but
 *       not yet in the divisor.
 *   <li>Scale-out: once the metric is above the target for {@value #OUT_PERIODS} consecutive
 *       periods (the high alarm's datapoints), to {@code ceil(total / target)}; warming instances
 *       count toward it, so a scale-out is not repeated while its instances start.
 *   <li>Scale-in: once the metric is below the target for {@value #IN_PERIODS} consecutive periods
 *       (the low alarm's), and no scale-out is warming up, to {@code ceil(total / target)} of the
 *       <em>highest</em> total of those periods, so a dip removes no more than the whole window
 *       sustains. After a scale-in the window starts over.
 *   <li>Always within [min, max]. A period without a reading ({@code NaN}) breaks both streaks.
 * </ul>
 *
 * Why it does not flap: scale-in needs five times as long a streak as scale-out, and the count it
 * goes to still holds the window's highest load at or below the target; after a scale-out to {@code
 * n} the metric falls to about {@code (n - 1) / n} of the target and the ceiling keeps {@code n}
 * unless the load itself fell.
 *
 * <p>Used by one thread (the scaler's).
 */
final class TargetTracking {
  /** Consecutive periods above the target before a scale-out (AWS: 3 of 3 one-minute points). */
  static final int OUT_PERIODS = 3;

  /** Consecutive periods below the target before a scale-in (AWS: 15 of 15 one-minute points). */
  static final int IN_PERIODS = 15;

  /** One group's policy: the target per instance per period, its bounds and its warm-up. */
  record Policy(String group, double target, int min, int max, int warmupPeriods) {
    Policy {
      if (!(target > 0) || min < 1 || max < min || warmupPeriods < 0) {
        throw new IllegalArgumentException(
            group + ": target > 0, 1 <= min <= max, warm-up >= 0; was " + this);
      }
    }
  }

  /** One evaluation: the metric per instance in service, and the size to have (maybe unchanged). */
  record Decision(int current, int desired, double perInstance, String why) {
    boolean changes() {
      return desired != current;
    }
  }

  private final Policy policy;
  private int above;
  private final Deque<Double> below = new ArrayDeque<>();

  /** Periods each warming instance still warms, oldest first: one entry per instance. */
  private final List<Integer> warming = new ArrayList<>();

  TargetTracking(Policy policy) {
    this.policy = policy;
  }

  Policy policy() {
    return policy;
  }

  /**
   * One period's evaluation.
   *
   * @param current instances in the group now, warming ones included
   * @param total the tier's metric total this period (NaN: no reading)
   */
  Decision evaluate(int current, double total) {
    warming.replaceAll(left -> left - 1);
    warming.removeIf(left -> left <= 0);
    while (warming.size() > current) {
      warming.remove(0); // an instance gone before its warm-up ended
    }
    int inService = Math.max(1, current - warming.size());
    double perInstance = total / inService;
    if (Double.isNaN(total)) {
      above = 0;
      below.clear();
      return new Decision(current, current, perInstance, "no reading");
    }
    if (perInstance > policy.target()) {
      above++;
      below.clear();
    } else if (perInstance < policy.target()) {
      above = 0;
      below.addLast(total);
      if (below.size() > IN_PERIODS) {
        below.removeFirst(); // the low alarm looks at the last IN_PERIODS periods
      }
    } else {
      above = 0;
      below.clear();
    }
    return decide(current, total, perInstance);
  }

  private Decision decide(int current, double total, double perInstance) {
    if (above >= OUT_PERIODS) {
      int desired = clamp(sized(total));
      if (desired > current) {
        for (int i = current; i < desired; i++) {
          warming.add(policy.warmupPeriods());
        }
        return new Decision(current, desired, perInstance, above + " periods above target");
      }
      return new Decision(current, current, perInstance, "above target, covered by " + current);
    }
    if (below.size() >= IN_PERIODS) {
      if (!warming.isEmpty()) {
        return new Decision(current, current, perInstance, "below target, scale-out warming up");
      }
      double highest = below.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      int desired = Math.min(current, clamp(sized(highest)));
      if (desired < current) {
        below.clear(); // its figures were per the old count
      }
      String why =
          String.format(
              Locale.ROOT, "%d periods below target, the highest total %.0f", IN_PERIODS, highest);
      return new Decision(current, desired, perInstance, why);
    }
    return new Decision(current, current, perInstance, "holding");
  }

  /** The instances that hold {@code total} at or below the target. */
  private int sized(double total) {
    double n = Math.ceil(total / policy.target());
    return n > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
  }

  private int clamp(int n) {
    return Math.max(policy.min(), Math.min(policy.max(), n));
  }
}
