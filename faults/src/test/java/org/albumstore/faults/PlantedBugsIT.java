package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.albumstore.client.history.HistoryCheck;
import org.albumstore.embedded.cluster.ReplicatedPostgres.Replication;
import org.albumstore.faults.harness.ClientProcess;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.FailoverDatabase;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.planted.PlantedBug;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A bug that only load exposes, planted through the consumer's writer seam and caught end to end: a
 * consumer whose transactions run with {@code synchronous_commit = off} ({@link
 * PlantedBug#ASYNC_COMMIT}) acknowledges commits that are not yet flushed nor on the synchronous
 * standby; two PostgreSQL failovers under a load of {@value #RATE} writes/s lose them, and the
 * client's history checker must name them as lost writes. At the 60 writes/s of {@code NemesisIT}'s
 * default the WAL writer flushes each commit at once and the bug goes unseen; so this is a targeted
 * schedule (failovers at fixed times during a heavy load) instead of a random one, and stays short
 * for {@code mvn verify}.
 *
 * <p>The stack is scenario 8's (a primary and a synchronous standby behind a switched address, one
 * in-process server, the shared broker with a queue of its own) with the planted consumer in a
 * process of its own. Needs the installed PostgreSQL and HAProxy: skipped in one line without them,
 * failed with {@code CI=true}.
 */
class PlantedBugsIT {
  static final int RATE = 1000;
  private static final int THREADS = 64;
  private static final Duration LOAD = Duration.ofSeconds(40);
  private static final Duration FIRST_FAILOVER = Duration.ofSeconds(10);
  private static final Duration SECOND_FAILOVER = Duration.ofSeconds(25);
  private static final Duration SLACK = Duration.ofMinutes(3);

  @BeforeAll
  static void needsPostgresAndHaProxy() {
    FailoverDatabase.require("the planted bugs caught by a PostgreSQL failover");
  }

  @Test
  void aConsumerThatCommitsAsynchronouslyLosesWritesAtAFailoverUnderLoadAndIsCaught()
      throws Exception {
    Path dir = dir("async-commit");
    try (FailoverDatabase db = FailoverDatabase.start(Replication.SYNCHRONOUS, dir);
        Stack stack = Stack.create("planted-async-commit", db.settings())) {
      stack.startServer(Map.of());
      try (ConsumerProcess consumer =
          ConsumerProcess.launchPlanted(
              "planted-async-commit-consumer",
              PlantedBug.ASYNC_COMMIT,
              stack.amqp,
              db.settings(),
              Map.of())) {
        consumer.awaitConsuming(stack.amqp);
        Path out = Files.createDirectories(dir.resolve("client"));
        ClientProcess.HistoryLoad history =
            new ClientProcess.HistoryLoad(
                stack.server().baseUrl(),
                stack.amqp,
                db.settings(),
                stack.runId,
                THREADS,
                RATE,
                LOAD,
                Duration.ofSeconds(20));
        long start = System.nanoTime();
        CompletableFuture<ClientProcess> load =
            CompletableFuture.supplyAsync(
                () ->
                    ClientProcess.runWithHistory(
                        "planted-async-commit-client", history, SLACK, out));
        sleepUntil(start, FIRST_FAILOVER);
        long first = db.failover();
        db.rebuildStandby();
        sleepUntil(start, SECOND_FAILOVER);
        long second = db.failover();
        ClientProcess client = load.get(LOAD.plus(SLACK).toSeconds() + 30, TimeUnit.SECONDS);

        Path verdictFile = out.resolve(HistoryCheck.VERDICT_FILE);
        assertThat(verdictFile).as(client.output()).isRegularFile();
        String verdict = Files.readString(verdictFile);
        Summary.record(
            "planted ASYNC_COMMIT, "
                + THREADS
                + " threads at "
                + RATE
                + " writes/s, failovers of "
                + first
                + " and "
                + second
                + " ms: "
                + verdict
                    .lines()
                    .map(String::strip)
                    .filter(l -> l.startsWith("no lost write"))
                    .toList()
                + " "
                + verdict.lines().filter(l -> l.startsWith("history:")).toList());

        assertThat(verdict).as(client.output()).containsPattern("no lost write +\\d+ violations");
        assertThat(client.exitCode()).as("the client's exit code on violations").isNotZero();
      }
    }
  }

  private static void sleepUntil(long start, Duration at) throws InterruptedException {
    long millis = at.toMillis() - (System.nanoTime() - start) / 1_000_000;
    if (millis > 0) {
      Thread.sleep(millis);
    }
  }

  private static Path dir(String name) {
    return Paths.outputDir()
        .resolve("planted-" + name + "-" + UUID.randomUUID().toString().substring(0, 8));
  }
}
