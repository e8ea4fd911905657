package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.albumstore.local.TargetTracking.Decision;
import org.albumstore.local.TargetTracking.Policy;
import org.junit.jupiter.api.Test;

class TargetTrackingTest {
  private static final double TARGET = 100;

  private static TargetTracking rule(int min, int max, int warmup) {
    return new TargetTracking(new Policy("test", TARGET, min, max, warmup));
  }

  /** Runs the rule on {@code totals}, applying each decision; the sizes after each period. */
  private static List<Integer> run(TargetTracking rule, int start, double... totals) {
    List<Integer> sizes = new ArrayList<>();
    int size = start;
    for (double total : totals) {
      size = rule.evaluate(size, total).desired();
      sizes.add(size);
    }
    return sizes;
  }

  private static double[] repeat(double total, int periods) {
    double[] t = new double[periods];
    java.util.Arrays.fill(t, total);
    return t;
  }

  @Test
  void scalesOutAfterThreePeriodsAboveToTheCeilingOfTotalOverTarget() {
    assertThat(run(rule(1, 8, 0), 2, 450, 450, 450)).containsExactly(2, 2, 5);
  }

  @Test
  void aBreakInTheStreakStartsItOver() {
    assertThat(run(rule(1, 8, 0), 2, 450, 450, 150, 450, 450)).containsOnly(2);
    assertThat(run(rule(1, 8, 0), 2, 450, 450, Double.NaN, 450, 450)).containsOnly(2);
    // Exactly at the target is neither above nor below.
    assertThat(run(rule(1, 8, 0), 2, 450, 450, 200, 450, 450)).containsOnly(2);
  }

  @Test
  void scalesInOnlyAfterFifteenPeriodsBelowToWhatTheirHighestLoadNeeds() {
    double[] totals = repeat(150, 15);
    totals[3] = 290; // the window's highest: 3 instances hold it at the target
    List<Integer> sizes = run(rule(1, 8, 0), 6, totals);
    assertThat(sizes.subList(0, 14)).containsOnly(6);
    assertThat(sizes.get(14)).isEqualTo(3);
  }

  @Test
  void neverScalesInWhileAScaleOutWarmsUp() {
    TargetTracking rule = rule(1, 8, 20);
    assertThat(run(rule, 2, 450, 450, 450)).endsWith(5);
    // The load falls at once: 15 periods below, but the warm-up (20 periods) still runs.
    List<Integer> sizes = run(rule, 5, repeat(50, 17));
    assertThat(sizes).containsOnly(5);
    // The low alarm stays in alarm; the period the warm-up ends (the 20th), it scales in.
    assertThat(run(rule, 5, repeat(50, 3))).containsExactly(5, 5, 1);
  }

  @Test
  void warmingInstancesAreNotInTheDivisorAndAScaleOutIsNotRepeatedWhileTheyStart() {
    TargetTracking rule = rule(1, 8, 5);
    assertThat(run(rule, 2, 450, 450, 450)).endsWith(5);
    // The two servers in service still carry everything: 225 each, above target, yet 5 cover it.
    Decision d = rule.evaluate(5, 450);
    assertThat(d.perInstance()).isEqualTo(225);
    assertThat(d.changes()).isFalse();
    // More load while they warm: only what the ceiling adds.
    assertThat(rule.evaluate(5, 620).desired()).isEqualTo(7);
  }

  @Test
  void staysWithinMinAndMax() {
    assertThat(run(rule(2, 4, 0), 2, 5000, 5000, 5000)).endsWith(4);
    assertThat(run(rule(2, 4, 0), 4, repeat(0, 15))).endsWith(2);
    assertThatThrownBy(() -> rule(3, 2, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aNoisyMetricAroundTheTargetDoesNotFlap() {
    // A steady load of exactly 4 instances' target, +-10% noise each period, fed back: the
    // metric is the load over the instances the rule chose.
    Random noise = new Random(42);
    TargetTracking rule = rule(1, 8, 5);
    int size = 4;
    int changes = 0;
    int scaleIns = 0;
    for (int period = 0; period < 2000; period++) {
      double total = 4 * TARGET * (1 + (noise.nextDouble() * 0.2 - 0.1));
      Decision d = rule.evaluate(size, total);
      if (d.changes()) {
        changes++;
        scaleIns += d.desired() < size ? 1 : 0;
      }
      size = d.desired();
    }
    assertThat(changes).as("instance changes in 2000 periods").isLessThanOrEqualTo(1);
    assertThat(scaleIns).isZero();
    assertThat(size).isBetween(4, 5);
  }

  @Test
  void aStepOutAndBackIsTwoChanges() {
    TargetTracking rule = rule(2, 8, 5);
    int size = 2;
    List<Integer> sizes = new ArrayList<>();
    double[] load = new double[110];
    for (int i = 0; i < load.length; i++) {
      load[i] = i >= 20 && i < 50 ? 750 : 150;
    }
    int changes = 0;
    for (double total : load) {
      int next = rule.evaluate(size, total).desired();
      changes += next != size ? 1 : 0;
      size = next;
      sizes.add(size);
    }
    assertThat(sizes.get(21)).isEqualTo(2);
    assertThat(sizes.get(22)).as("the third period above").isEqualTo(8);
    assertThat(sizes.get(63)).as("14 periods below").isEqualTo(8);
    assertThat(sizes.get(64)).as("the fifteenth").isEqualTo(2);
    assertThat(changes).isEqualTo(2);
  }
}
