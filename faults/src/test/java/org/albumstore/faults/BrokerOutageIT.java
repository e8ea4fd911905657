package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.albumstore.embedded.testing.TcpProxy;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.ApiClient.Reply;
import org.albumstore.faults.harness.Bodies;
import org.albumstore.faults.harness.Finish;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Scenario 3: the broker goes away from the server for a few seconds in the middle of a load (a
 * proxy between them resets every connection and refuses new ones; the broker itself, which the
 * consumer and other programs use, keeps running). While no confirm can arrive, every write is
 * answered 503 with {@code Retry-After}, never 200; the server reconnects by itself; the load's
 * retries, with the same Idempotency-Keys, all end in a 200; the audit passes.
 */
class BrokerOutageIT {
  private static final Duration OUTAGE = Duration.ofSeconds(4);

  @Test
  void whileTheBrokerIsUnreachableWritesGet503NeverA200AndEverythingIsStoredOnceAfterwards()
      throws Exception {
    try (Stack stack = Stack.create("s3-broker")) {
      TcpProxy proxy = stack.brokerProxy();
      stack.startServer(Map.of());
      stack.startConsumer();
      List<Reply> replies = new CopyOnWriteArrayList<>();
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 32, Timeout.ofSeconds(15))) {
        WriteLoad load =
            new WriteLoad(api, stack.runId, 16, 50, 100, Duration.ofSeconds(90), replies::add)
                .start();
        try {
          load.awaitAcked(load.plannedWrites() / 4, Duration.ofSeconds(60));
          boolean midRun = !load.isDone();
          proxy.cut();
          // The outage starts once cut() has returned (every connection reset, new ones
          // refused); a write sent while it ran may still have been confirmed, legitimately.
          long cutAt = System.nanoTime();
          Thread.sleep(OUTAGE.toMillis() / 2);
          Reply healthDuring = api.get("/health");
          Thread.sleep(OUTAGE.toMillis() / 2);
          long restoredAt = System.nanoTime();
          proxy.restore();
          load.awaitDone(Duration.ofSeconds(180));
          Reply healthAfter = api.get("/health");

          long okDuringOutage =
              replies.stream()
                  .filter(
                      r ->
                          r.status() == 200
                              && r.sentNanos() > cutAt
                              && r.receivedNanos() < restoredAt)
                  .count();
          long unavailableDuringOutage =
              replies.stream()
                  .filter(
                      r ->
                          r.status() == 503
                              && r.receivedNanos() > cutAt
                              && r.receivedNanos() < restoredAt)
                  .count();
          long firstOkAfter =
              replies.stream()
                  .filter(r -> r.status() == 200 && r.sentNanos() > restoredAt)
                  .mapToLong(Reply::receivedNanos)
                  .min()
                  .orElse(Long.MAX_VALUE);
          double recoverySeconds =
              firstOkAfter == Long.MAX_VALUE ? Double.NaN : (firstOkAfter - restoredAt) / 1e9;

          Finish.Outcome end = Finish.drainStopAndAudit(stack, load.acknowledged(), 0);
          Summary.record(
              Summary.loadLine(
                  "scenario 3 (broker unreachable from the server for "
                      + OUTAGE.toSeconds()
                      + " s)",
                  load.stats(),
                  end.redeliveries(),
                  end.audit(),
                  String.format(
                      "503s during the outage %d, 200s for writes sent during the outage %d,"
                          + " first 200 %.1f s after the broker came back",
                      unavailableDuringOutage, okDuringOutage, recoverySeconds)));

          assertThat(midRun).as("the broker was cut while the load was running").isTrue();
          assertThat(okDuringOutage).as("200s for writes sent while the broker was away").isZero();
          assertThat(unavailableDuringOutage).as("503s while the broker was away").isPositive();
          assertThat(healthDuring.status()).isEqualTo(503);
          assertThat(Bodies.field(healthDuring.body(), "broker").asText()).isEqualTo("DOWN");
          assertThat(healthAfter.status()).as(healthAfter.body()).isEqualTo(200);
          assertThat(recoverySeconds)
              .as("seconds to the first 200 after the outage")
              .isLessThan(30);
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
