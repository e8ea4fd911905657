package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.Finish;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.albumstore.server.ServerSettings;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Scenario 7: far more concurrent clients (512 connections, all released at once) than the server
 * has request threads (4) and publish channels (1), with a short publish queue (16 writes) and a 2
 * s limit on how long a write may wait for the broker. The burst alone is 20 times what the queue,
 * the channel's batch and the threads can hold. The excess must be refused quickly with 503 and
 * {@code Retry-After}, never a 500 and never a hang; every 200 must be stored (audit). The clients
 * retry their 503s with the same Idempotency-Key.
 */
class OverloadIT {
  private static final int CLIENTS = 512;
  private static final long HANG_MILLIS = 10_000;

  @Test
  void farMoreClientsThanThreadsAndChannelsGet200Or503QuicklyAndEvery200IsStored()
      throws Exception {
    try (Stack stack = Stack.create("s7-overload")) {
      stack.startServer(
          Map.of(
              ServerSettings.HTTP_THREADS.variable(), "4",
              ServerSettings.PUBLISH_CHANNELS.variable(), "1",
              ServerSettings.PUBLISH_QUEUE_MAX.variable(), "16",
              ServerSettings.PUBLISH_BUNDLE_MAX.variable(), "8",
              // A write waits at most 2 s for the broker before it is refused (default 5 s).
              ServerSettings.CONFIRM_TIMEOUT_MS.variable(), "2000"));
      stack.startConsumer();
      try (ApiClient api =
          new ApiClient(stack.server().baseUrl(), CLIENTS + 16, Timeout.ofSeconds(30))) {
        WriteLoad load =
            new WriteLoad(api, stack.runId, CLIENTS, 1, 0, Duration.ofSeconds(120), null).start();
        try {
          load.awaitDone(Duration.ofSeconds(180));
          Finish.Outcome end = Finish.drainStopAndAudit(stack, load.acknowledged(), 0);
          Summary.record(
              Summary.loadLine(
                  "scenario 7 (overload: "
                      + CLIENTS
                      + " concurrent clients, 4 HTTP threads, 1 publish channel, publish queue 16)",
                  load.stats(),
                  end.redeliveries(),
                  end.audit(),
                  "time to a 503: median "
                      + load.stats().refusalMillis(0.5)
                      + " ms, p99 "
                      + load.stats().refusalMillis(0.99)
                      + " ms; slowest answer "
                      + load.stats().maxMillis()
                      + " ms"));
          LoadChecks.assertClean(load.stats());
          assertThat(load.stats().status(503)).as("503s: the excess was refused").isPositive();
          assertThat(load.stats().ioErrors()).as("I/O errors (timeouts, resets)").isZero();
          assertThat(load.stats().maxMillis()).as("slowest answer, ms").isLessThan(HANG_MILLIS);
          assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
          assertThat(end.cleanStop()).as(end.stopDescription()).isTrue();
        } finally {
          load.interrupt();
        }
      }
    }
  }
}
