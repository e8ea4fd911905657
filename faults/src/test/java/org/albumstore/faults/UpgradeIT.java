package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.upgrade.UpgradePlan;
import org.albumstore.faults.upgrade.UpgradeRun;
import org.junit.jupiter.api.Test;

/**
 * Rolling upgrades under a judged load: the cluster topology (3 RabbitMQ nodes, 2 servers behind
 * HAProxy, 2 consumers) starts on release N, built from git ({@code upgrade/Releases}), while the
 * client writes and reads through the balancer with its operation history on; a seed's schedule
 * expands the schema online, replaces the consumers one at a time, then the servers one at a time,
 * with one fault of the nemesis's lanes (a broker node paused or a consumer killed) in the middle
 * of it. The checker judges every operation and the audit reads the database back: a rolling
 * upgrade in the documented order loses nothing and counts nothing twice, and ends with version 3
 * written and applied.
 *
 * <p>{@code -Dalbumstore.upgrade.plan=servers-first|rollback|planted} plays the other plans ({@code
 * upgrade/UpgradePlan}), each judged its own way below; {@code .seed}, {@code .seconds}, {@code
 * .rate} and {@code .threads} set the rest ({@code faults/upgrade.sh}). {@code mvn verify} runs the
 * defaults: the documented plan, one short seed at a load light enough to hold beside the other
 * modules on 2 cores; the runs at 1,000 writes/s are {@code upgrade.sh}'s.
 */
class UpgradeIT {
  /**
   * The run of {@code mvn verify}: its fault kills consumer #0 (still N) 2 s before that consumer's
   * own upgrade step, which then finds it dead and starts N+1 in its place; the heal finds it
   * running and starts nothing. Asserted below.
   */
  private static final long DEFAULT_SEED = 7;

  private static final long DEFAULT_SECONDS = 70;
  private static final int DEFAULT_RATE = 120;
  private static final int DEFAULT_THREADS = 16;

  static final UpgradeRun.Settings SETTINGS =
      new UpgradeRun.Settings(
          UpgradePlan.fromLabel(System.getProperty("albumstore.upgrade.plan", "documented")),
          Long.getLong("albumstore.upgrade.seed", DEFAULT_SEED),
          Duration.ofSeconds(Long.getLong("albumstore.upgrade.seconds", DEFAULT_SECONDS)),
          Integer.getInteger("albumstore.upgrade.rate", DEFAULT_RATE),
          Integer.getInteger("albumstore.upgrade.threads", DEFAULT_THREADS));

  @Test
  void aRollingUpgradeUnderLoadLosesNothingAndCountsNothingTwice() throws Exception {
    UpgradeRun.Result run = UpgradeRun.play(SETTINGS);
    String verdict = run.verdict();
    Summary.record(
        "upgrade "
            + SETTINGS.plan().label()
            + " seed "
            + SETTINGS.seed()
            + ", "
            + SETTINGS.length().toSeconds()
            + " s at "
            + SETTINGS.rate()
            + " writes/s: "
            + verdict.lines().reduce((a, b) -> b).orElse("no verdict")
            + ", audit mismatches "
            + run.mismatches()
            + ", dead-lettered "
            + run.deadLettered()
            + ", redriven "
            + run.redriven()
            + " (details: "
            + run.out().resolve("upgrade.txt")
            + ")");
    assertThat(run.failures()).as("steps or a fault that could not be played").isEmpty();
    switch (SETTINGS.plan()) {
      case DOCUMENTED -> assertDocumented(run);
      case SERVERS_FIRST, ROLLBACK -> assertRedrivenExactlyOnce(run);
      case PLANTED -> assertCaught(run);
    }
  }

  /**
   * The guarantee: nothing lost, nothing counted twice, every operation right; nothing
   * dead-lettered, since no N consumer ever met a version-3 message; every instance on N+1, and
   * every review sent after the last server's upgrade applied with its version-3 review time.
   */
  private static void assertDocumented(UpgradeRun.Result run) {
    assertThat(run.verdict()).as(run.verdict()).contains("history: no violation");
    assertThat(run.mismatches()).as("the audit's mismatches").isZero();
    assertThat(run.deadLettered()).as("messages N's consumers dead-lettered").isZero();
    assertThat(run.deadLettersAtEnd()).as("messages in the dead-letter queues").isZero();
    assertThat(run.finalServers()).hasSize(2).allMatch(r -> r.equals(run.next()));
    assertThat(run.finalConsumers()).hasSize(2).allMatch(r -> r.equals(run.next()));
    assertThat(run.reviewedLast())
        .as("albums reviewed after the last server's upgrade (the load outlasted the upgrade)")
        .isNotEmpty();
    assertThat(run.withoutReviewTime())
        .as("albums reviewed on N+1 only, without last_review_at (version 3 not applied)")
        .isEmpty();
    if (isDefaultRun()) {
      assertThat(run.schedule().fault().kind().name()).isEqualTo("CONSUMER_KILL");
      JsonNode writes = run.summary().path("allWrites");
      assertThat(writes.path("failed").asLong(-1))
          .as("writes that never got a 200, retries included: %s", writes)
          .isZero();
      assertThat(writes.path("ok").asLong()).as("%s", writes).isPositive();
    }
  }

  /**
   * The wrong order and the rollback: version-3 messages reached N's consumers, which dead-lettered
   * them; one redrive moved them all back and N+1's consumers applied each once. No lost write and
   * no duplicate; the other properties are the order's cost, reported in upgrade.txt.
   */
  private static void assertRedrivenExactlyOnce(UpgradeRun.Result run) {
    assertThat(run.verdict()).containsPattern("no lost write +ok");
    assertThat(run.verdict()).containsPattern("no duplicate +ok");
    assertThat(run.mismatches()).as("the audit's mismatches").isZero();
    assertThat(run.redriven()).as("messages the redrive moved").isPositive();
    assertThat(run.deadLettersAtEnd())
        .as("messages left in the dead-letter queues after the one redrive (upgrade.txt: why)")
        .isZero();
  }

  /** The planted bug is caught: the checker names violations, or the audit finds mismatches. */
  private static void assertCaught(UpgradeRun.Result run) {
    assertThat(run.verdict().contains("VIOLATIONS") || run.mismatches() > 0)
        .as("the planted bug caught: %s, %d mismatches", run.verdict(), run.mismatches())
        .isTrue();
  }

  private static boolean isDefaultRun() {
    return SETTINGS.plan() == UpgradePlan.DOCUMENTED
        && SETTINGS.seed() == DEFAULT_SEED
        && SETTINGS.length().toSeconds() == DEFAULT_SECONDS
        && SETTINGS.rate() == DEFAULT_RATE
        && SETTINGS.threads() == DEFAULT_THREADS;
  }
}
