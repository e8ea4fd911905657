package org.albumstore.faults.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.albumstore.faults.nemesis.Fault;
import org.albumstore.faults.nemesis.FaultKind;
import org.albumstore.faults.upgrade.UpgradeStep.Action;
import org.albumstore.faults.upgrade.UpgradeStep.Side;
import org.junit.jupiter.api.Test;

class UpgradeScheduleTest {
  private static UpgradeSchedule draw(long seed, UpgradePlan plan, Duration length) {
    return UpgradeSchedule.draw(seed, plan, length, 2, 2, 3);
  }

  @Test
  void theSameSeedReplaysTheSameUpgrade_anotherSeedDrawsAnother() {
    Duration length = Duration.ofMinutes(10);
    UpgradeSchedule a = draw(42, UpgradePlan.DOCUMENTED, length);
    assertThat(draw(42, UpgradePlan.DOCUMENTED, length)).isEqualTo(a);
    assertThat(draw(42, UpgradePlan.DOCUMENTED, length).toString()).isEqualTo(a.toString());
    assertThat(draw(43, UpgradePlan.DOCUMENTED, length)).isNotEqualTo(a);
  }

  @Test
  void theDocumentedOrderExpandsThenTakesEveryConsumerThenEveryServerToNPlus1() {
    for (long seed = 0; seed < 200; seed++) {
      List<UpgradeStep> steps = draw(seed, UpgradePlan.DOCUMENTED, Duration.ofSeconds(80)).steps();
      assertThat(steps)
          .extracting(UpgradeStep::action)
          .containsExactly(
              Action.EXPAND,
              Action.REPLACE_CONSUMER,
              Action.REPLACE_CONSUMER,
              Action.REPLACE_SERVER,
              Action.REPLACE_SERVER);
      assertThat(steps.subList(1, 3))
          .extracting(UpgradeStep::target)
          .containsExactlyInAnyOrder(0, 1);
      assertThat(steps.subList(3, 5))
          .extracting(UpgradeStep::target)
          .containsExactlyInAnyOrder(0, 1);
      assertThat(steps.subList(1, 5)).allMatch(s -> s.to() == Side.N_PLUS_1);
    }
  }

  @Test
  void theWrongOrderAndTheRollbackEndWithOneRedriveAfterEveryConsumerReadsVersion3() {
    for (UpgradePlan plan :
        List.of(UpgradePlan.SERVERS_FIRST, UpgradePlan.PLANTED, UpgradePlan.ROLLBACK)) {
      List<UpgradeStep> steps = draw(7, plan, Duration.ofMinutes(2)).steps();
      assertThat(steps.get(steps.size() - 1).action()).as("%s", plan).isEqualTo(Action.REDRIVE);
      List<UpgradeStep> lastOfEachConsumer =
          steps.stream().filter(s -> s.action() == Action.REPLACE_CONSUMER).toList();
      assertThat(
              lastOfEachConsumer.subList(lastOfEachConsumer.size() - 2, lastOfEachConsumer.size()))
          .as("%s", plan)
          .allMatch(s -> s.to() == Side.N_PLUS_1);
    }
    List<Action> rollback =
        draw(7, UpgradePlan.ROLLBACK, Duration.ofMinutes(2)).steps().stream()
            .map(UpgradeStep::action)
            .toList();
    assertThat(rollback.subList(0, 4))
        .containsExactly(
            Action.STOP_CONSUMER,
            Action.STOP_CONSUMER,
            Action.REPLACE_SERVER,
            Action.REPLACE_SERVER);
  }

  @Test
  void
      stepsArePlannedInOrderAfterTheWarmUp_theFaultIsOneNodePauseOrConsumerKillHealedBeforeTheLastStep() {
    for (UpgradePlan plan : UpgradePlan.values()) {
      for (long seed = 0; seed < 300; seed++) {
        for (Duration length : List.of(Duration.ofSeconds(80), Duration.ofMinutes(10))) {
          UpgradeSchedule s = draw(seed, plan, length);
          Duration previous = Duration.ZERO;
          for (UpgradeStep step : s.steps()) {
            assertThat(step.at())
                .isGreaterThanOrEqualTo(UpgradeSchedule.WARM_UP)
                .isGreaterThan(previous);
            previous = step.at();
          }
          assertThat(previous.toMillis())
              .isLessThan((long) (length.toMillis() * UpgradeSchedule.UPGRADE_SHARE));
          Fault f = s.fault();
          assertThat(f.kind()).isIn(FaultKind.NODE_PAUSE, FaultKind.CONSUMER_KILL);
          assertThat(f.start()).isGreaterThanOrEqualTo(UpgradeSchedule.WARM_UP);
          assertThat(f.heal()).isLessThanOrEqualTo(previous);
          assertThat(f.heal().minus(f.start())).isBetween(f.kind().shortest(), f.kind().longest());
          assertThat(f.target()).isBetween(0, f.kind() == FaultKind.NODE_PAUSE ? 2 : 1);
        }
      }
    }
  }

  @Test
  void aPlanIsNamedOnTheCommandLineAsInTheResultsFolders() {
    for (UpgradePlan p : UpgradePlan.values()) {
      assertThat(UpgradePlan.fromLabel(p.label())).isEqualTo(p);
    }
    assertThat(UpgradePlan.SERVERS_FIRST.label()).isEqualTo("servers-first");
  }

  @Test
  void aRedrivesCountsAreReadFromWhatItPrints() {
    String out =
        "moved 3 messages from q.dlq to q\n"
            + "       3  invalid message: unknown version 3 (this consumer reads versions 1 to 2)\n"
            + "moved 0 messages from q.1.dlq to q.1\n"
            + "moved 2 messages from q.2.dlq to q.2\n"
            + "       2  invalid message: unknown version 3 (this consumer reads versions 1 to 2)\n";
    ReleaseCommands.Redrive r = ReleaseCommands.parseRedrive(out);
    assertThat(r.moved()).isEqualTo(5);
    assertThat(r.byReason())
        .containsExactly(
            java.util.Map.entry(
                "invalid message: unknown version 3 (this consumer reads versions 1 to 2)", 5L));
  }
}
