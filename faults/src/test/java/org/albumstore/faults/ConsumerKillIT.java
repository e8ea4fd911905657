package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Finish;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Scenario 1: the consumer process is killed with SIGKILL in the middle of a load, then started
 * again. Whatever it had applied but not yet acknowledged is redelivered to the new process and
 * must change nothing; whatever it had received but not applied must be applied once.
 */
class ConsumerKillIT {

  @Test
  void aConsumerKilledMidRunAndRestartedLosesNothingAndCountsNothingTwice() throws Exception {
    try (Stack stack = Stack.create("s1-kill")) {
      stack.startServer(Map.of());
      // Long batch waits: at any moment the consumer holds deliveries it has not acknowledged.
      ConsumerProcess first = stack.startConsumer("--batch-wait-ms", "200");
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 32, Timeout.ofSeconds(15))) {
        WriteLoad load =
            new WriteLoad(api, stack.runId, 16, 50, 100, Duration.ofSeconds(60), null).start();
        try {
          load.awaitAcked(load.plannedWrites() / 3, Duration.ofSeconds(60));
          boolean midRun = !load.isDone();
          first.kill();
          Thread.sleep(1_500); // writes keep arriving while no consumer runs
          stack.startConsumer();
          load.awaitDone(Duration.ofSeconds(120));

          Finish.Outcome end = Finish.drainStopAndAudit(stack, load.acknowledged(), 0);
          Summary.record(
              Summary.loadLine(
                  "scenario 1 (consumer SIGKILL mid-run, restarted)",
                  load.stats(),
                  end.redeliveries(),
                  end.audit(),
                  "killed consumer exit " + exitOf(first)));

          assertThat(midRun).as("the kill came while the load was running").isTrue();
          LoadChecks.assertClean(load.stats());
          assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
          assertThat(end.cleanStop()).as(end.stopDescription()).isTrue();
          // The kill found messages in hand: the restarted process saw them again.
          assertThat(end.redeliveries()).as("redeliveries after the kill").isPositive();
        } finally {
          load.interrupt();
        }
      }
    }
  }

  private static String exitOf(ConsumerProcess p) {
    return p.isAlive() ? "running" : "137 (SIGKILL)";
  }
}
