package org.albumstore.faults.upgrade;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.albumstore.faults.harness.ClusterWorld;
import org.albumstore.faults.harness.Release;
import org.albumstore.faults.upgrade.UpgradeStep.Side;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays an {@link UpgradeSchedule}'s steps on a {@link ClusterWorld}, one after the other on a
 * thread of its own, each at its planned moment or when the one before it ends: an operator's
 * runbook, not a nemesis, so steps never overlap. A step that fails ends the upgrade there (the
 * rest would start from a state the plan does not expect); the failure is kept for the test to
 * report.
 *
 * <p>What each step does and why it is safe under load is {@link UpgradeStep.Action}'s; here, how
 * each is observed: its start and end, and what it printed or counted. Nothing here reads the
 * broker between steps (a paused node would hold the next step for a connection's timeout): the
 * dead-letter queues are sampled beside the run ({@code BacklogProbe.deadLetters}).
 */
final class Upgrader {
  private static final Logger log = LoggerFactory.getLogger(Upgrader.class);

  /**
   * One step as it ran, in wall-clock time.
   *
   * @param detail what it did, for the report
   * @param deadLettered for a consumer replaced or stopped, what it had dead-lettered (its final
   *     counters); else 0
   * @param redriven for the redrive, the messages it moved; else 0
   */
  record StepRun(
      UpgradeStep step,
      Instant start,
      Instant end,
      String detail,
      long deadLettered,
      long redriven) {}

  private final UpgradeSchedule schedule;
  private final ClusterWorld world;
  private final ConsumerSlots consumers;
  private final Map<Side, Release> releases;
  private final ReleaseCommands commands;
  private final List<StepRun> runs = Collections.synchronizedList(new ArrayList<>());
  private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
  private Thread thread;
  private long startNanos;

  Upgrader(
      UpgradeSchedule schedule,
      ClusterWorld world,
      ConsumerSlots consumers,
      Map<Side, Release> releases,
      String name) {
    this.schedule = schedule;
    this.world = world;
    this.consumers = consumers;
    this.releases = Map.copyOf(releases);
    this.commands = new ReleaseCommands(releases.get(Side.N_PLUS_1), name);
  }

  /** Starts playing now: the steps' moments count from this moment. */
  void start() {
    startNanos = System.nanoTime();
    thread = new Thread(this::play, "upgrade-steps");
    thread.start();
  }

  private void play() {
    try {
      for (UpgradeStep s : schedule.steps()) {
        long wait = startNanos + s.at().toNanos() - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        log.info("upgrade step: {}", s.what());
        StepRun run = run(s, Instant.now());
        runs.add(run);
        log.info("upgrade step done: {} ({})", s.what(), run.detail());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception | AssertionError e) {
      log.error("upgrade step failed", e);
      failures.add(e);
    }
  }

  private StepRun run(UpgradeStep s, Instant start) throws Exception {
    return switch (s.action()) {
      case EXPAND -> {
        ReleaseCommands.Output out = commands.schema(world.db());
        String detail = "exit 0 in " + out.millis() + " ms: " + out.line("schema.sql applied");
        yield new StepRun(s, start, Instant.now(), detail, 0, 0);
      }
      case REPLACE_CONSUMER -> {
        ConsumerSlots.Replaced r = consumers.replace(s.target(), releases.get(s.to()));
        String detail =
            String.format(
                "%s (%s) exited %d, %s (%s) consumes",
                r.old().name(),
                r.old().release(),
                r.exit(),
                r.replacement().name(),
                r.replacement().release());
        yield new StepRun(s, start, Instant.now(), detail, r.deadLettered(), 0);
      }
      case STOP_CONSUMER -> {
        ConsumerSlots.Replaced r = consumers.stop(s.target());
        String detail = r.old().name() + " (" + r.old().release() + ") exited " + r.exit();
        yield new StepRun(s, start, Instant.now(), detail, r.deadLettered(), 0);
      }
      case REPLACE_SERVER -> {
        String old = world.servers().get(s.target()).release().name();
        int exit = world.replaceServer(s.target(), releases.get(s.to()));
        String detail = "the " + old + " server exited " + exit + ", the balancer has the new one";
        yield new StepRun(s, start, Instant.now(), detail, 0, 0);
      }
      case REDRIVE -> {
        ReleaseCommands.Redrive r = commands.redrive(world.amqp());
        yield new StepRun(s, start, Instant.now(), r.toString(), 0, r.moved());
      }
    };
  }

  /** Waits for the steps to have been played; false when {@code limit} passed first. */
  boolean awaitDone(Duration limit) throws InterruptedException {
    thread.join(limit.toMillis());
    return !thread.isAlive();
  }

  /** Stops a step still running (a failed test); for the finally of the caller. */
  void stop() throws InterruptedException {
    if (thread != null && thread.isAlive()) {
      thread.interrupt();
      thread.join(60_000);
    }
  }

  /** The steps played, in order. */
  List<StepRun> runs() {
    synchronized (runs) {
      return List.copyOf(runs);
    }
  }

  List<Throwable> failures() {
    return List.copyOf(failures);
  }
}
