package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Finish;
import org.albumstore.faults.harness.Leftovers;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Scenario 2: the consumer is stopped with SIGTERM in the middle of a load. It must finish and
 * acknowledge the batches in hand and exit by itself; what it leaves in the queue must be only
 * messages it never applied; a new consumer then applies the rest, and the audit passes.
 */
class ConsumerTermIT {

  @Test
  void aConsumerStoppedWithSigtermMidRunFlushesAcksAndLeavesOnlyUnappliedMessages()
      throws Exception {
    try (Stack stack = Stack.create("s2-term")) {
      stack.startServer(Map.of());
      ConsumerProcess first = stack.startConsumer();
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 32, Timeout.ofSeconds(15))) {
        WriteLoad load =
            new WriteLoad(api, stack.runId, 16, 50, 100, Duration.ofSeconds(60), null).start();
        try {
          load.awaitAcked(load.plannedWrites() / 3, Duration.ofSeconds(60));
          boolean midRun = !load.isDone();
          int exit = first.terminate(Duration.ofSeconds(30));
          long appliedByFirst = first.stoppedCounter("messagesApplied");
          // The load goes on meanwhile; what is in the queue now must all be unapplied.
          Leftovers.Result left = Leftovers.inspect(stack.amqp, stack.db, 5_000);
          stack.startConsumer();
          load.awaitDone(Duration.ofSeconds(120));

          Finish.Outcome end = Finish.drainStopAndAudit(stack, load.acknowledged(), 0);
          Summary.record(
              Summary.loadLine(
                  "scenario 2 (consumer SIGTERM mid-run, restarted)",
                  load.stats(),
                  end.redeliveries(),
                  end.audit(),
                  "stopped consumer exit "
                      + exit
                      + " after applying "
                      + appliedByFirst
                      + " messages, "
                      + left.messages()
                      + " messages left in the queue of which "
                      + left.alreadyApplied()
                      + " already applied"));

          assertThat(midRun).as("the SIGTERM came while the load was running").isTrue();
          assertThat(exit).as("exit status after SIGTERM (143: shutdown hooks ran)").isIn(0, 143);
          assertThat(appliedByFirst)
              .as("final counters logged by the stopping consumer")
              .isPositive();
          assertThat(left.alreadyApplied())
              .as("messages left in the queue that the stopped consumer had applied but not acked")
              .isZero();
          LoadChecks.assertClean(load.stats());
          assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
          assertThat(end.cleanStop()).as(end.stopDescription()).isTrue();
        } finally {
          load.interrupt();
        }
      }
    }
  }
}
