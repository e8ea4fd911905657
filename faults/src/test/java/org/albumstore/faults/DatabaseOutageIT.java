package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.albumstore.embedded.testing.TcpProxy;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.Audit;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Finish;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Scenario 4: PostgreSQL goes away from the consumer for a few seconds in the middle of a load (a
 * proxy between them; the database itself keeps running). The consumer must not acknowledge what it
 * cannot commit, must retry with back-off, must dead-letter nothing, and must catch up by itself
 * when the database is back; the audit passes.
 */
class DatabaseOutageIT {
  private static final Duration OUTAGE = Duration.ofSeconds(4);

  @Test
  void whileTheDatabaseIsUnreachableTheConsumerHoldsRetriesAndCatchesUpWithNothingDeadLettered()
      throws Exception {
    try (Stack stack = Stack.create("s4-database")) {
      TcpProxy proxy = stack.dbProxy();
      stack.startServer(Map.of());
      // A small prefetch: what the consumer cannot apply stays visibly in the queue.
      ConsumerProcess consumer = stack.startConsumer("--prefetch", "50", "--batch-size", "50");
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 32, Timeout.ofSeconds(15))) {
        WriteLoad load = new WriteLoad(api, stack.runId, 16, 50, 100, Duration.ofSeconds(60), null);
        try (Audit probe = new Audit(load.acknowledged(), stack.amqp, stack.db)) {
          load.start();
          load.awaitAcked(load.plannedWrites() / 4, Duration.ofSeconds(60));
          boolean midRun = !load.isDone();
          proxy.cut();
          Thread.sleep(500); // a transaction already on its way may still commit
          long storedAtCut = probe.reviewsStored();
          Thread.sleep(OUTAGE.toMillis() - 500);
          long storedBeforeRestore = probe.reviewsStored();
          long queuedBeforeRestore = probe.queued();
          proxy.restore();
          load.awaitDone(Duration.ofSeconds(120));

          Finish.Outcome end = Finish.drainStopAndAudit(stack, load.acknowledged(), 0);
          String log = consumer.output();
          Summary.record(
              Summary.loadLine(
                  "scenario 4 (database unreachable from the consumer for "
                      + OUTAGE.toSeconds()
                      + " s)",
                  load.stats(),
                  end.redeliveries(),
                  end.audit(),
                  "reviews applied during the outage "
                      + (storedBeforeRestore - storedAtCut)
                      + ", queue depth at the end of the outage "
                      + queuedBeforeRestore));

          assertThat(midRun).as("the database was cut while the load was running").isTrue();
          assertThat(storedBeforeRestore)
              .as("nothing committed while the database was away")
              .isEqualTo(storedAtCut);
          assertThat(queuedBeforeRestore)
              .as("writes waiting in the queue during the outage")
              .isPositive();
          assertThat(log)
              .contains(
                  "database writes failing, retrying with back-off (messages stay unacknowledged)")
              .contains("database writes recovered after");
          LoadChecks.assertClean(load.stats());
          assertThat(end.audit().deadLetters()).as("dead letters").isZero();
          assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
          assertThat(end.cleanStop()).as(end.stopDescription()).isTrue();
        } finally {
          load.interrupt();
        }
      }
    }
  }
}
