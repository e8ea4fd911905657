package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.albumstore.client.ClientMain;
import org.albumstore.client.ClientResult;
import org.albumstore.client.JsonSummary;
import org.albumstore.client.MergedSummary;
import org.albumstore.client.RunSummary;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.consumer.AlbumStoreConsumer;
import org.albumstore.consumer.ConsumerSettings;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.server.AlbumStoreServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several client machines, proven on one: two clients with one {@code --run-id}, started together
 * against one real server (with its consumer, broker and database), then {@code merge} of their run
 * directories: the merged report sums their counts and rates, takes its percentiles from their
 * merged histograms, and verifies the union of their acknowledged writes in the database.
 */
class MergeIT {
  /**
   * One run ID for both clients, new for every execution: the Idempotency-Keys (and so the album
   * and event IDs) derive from it, and the test database outlives the test. A fixed ID would make
   * this run's writes the same as a previous run's, deduplicated only as long as the ledger still
   * holds the previous run's rows (retention prunes them).
   */
  private static final String RUN_ID = "merge-it-" + UUID.randomUUID().toString().substring(0, 8);

  @TempDir static Path dir;
  private static AmqpSettings amqp;
  private static AlbumStoreServer server;
  private static AlbumStoreConsumer consumer;

  @BeforeAll
  static void start() throws Exception {
    amqp = TestServices.declare(TestServices.amqp("client-merge"));
    DatabaseSettings db = TestServices.database();
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, db));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    consumer = AlbumStoreConsumer.start(ConsumerSettings.defaults(), amqp, db);
  }

  @AfterAll
  static void stop() throws Exception {
    if (consumer != null) {
      consumer.close();
    }
    if (server != null) {
      server.close();
    }
    if (amqp != null) {
      TestServices.deleteTopology(amqp);
    }
  }

  /** One client machine: verification is left to the merge, as on separate machines. */
  private static CompletableFuture<ClientResult> client(String name, int threads, int iterations) {
    return CompletableFuture.supplyAsync(
        () ->
            ClientMain.execute(
                Env.of(Map.of()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                System.err,
                "--url",
                server.baseUrl(),
                "--queue",
                amqp.queue(),
                "--amqp-uri",
                amqp.uri(),
                "--rmq-api",
                "none",
                "--consumer-metrics",
                "none",
                "--no-verify",
                "--no-progress",
                "--run-id",
                RUN_ID,
                "--threads",
                Integer.toString(threads),
                "--iterations",
                Integer.toString(iterations),
                "--out",
                dir.resolve(name).toString()));
  }

  @Test
  void twoClientsStartedTogetherMergeIntoOneReportAndOneVerificationOfBothTheirWrites()
      throws Exception {
    CompletableFuture<ClientResult> a = client("a", 3, 20);
    CompletableFuture<ClientResult> b = client("b", 2, 25);
    RunSummary ra = a.get().summary();
    RunSummary rb = b.get().summary();
    assertThat(a.get().exitCode()).isZero();
    assertThat(b.get().exitCode()).isZero();

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        ClientMain.execute(
                Env.of(Map.of()),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err,
                "merge",
                dir.resolve("a").toString(),
                dir.resolve("b").toString(),
                "--drain-timeout",
                "60",
                "--out",
                dir.resolve("merged").toString())
            .exitCode();

    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(report).isZero();
    MergedSummary m = JsonSummary.read(dir.resolve("merged/summary.json"), MergedSummary.class);
    assertThat(m.runs()).hasSize(2);
    // 3 x 20 + 2 x 25 albums, each with 2 likes and a dislike.
    assertThat(m.requests().get(0).ok()).isEqualTo(110);
    assertThat(m.allWrites().ok()).isEqualTo(440);
    assertThat(m.allWrites().failed()).isZero();
    assertThat(m.throughput()).isEqualTo(ra.throughput() + rb.throughput());
    assertThat(m.allWrites().maxMs())
        .isEqualTo(Math.max(ra.allWrites().maxMs(), rb.allWrites().maxMs()));
    assertThat(m.allWrites().p99Ms())
        .isBetween(
            Math.min(ra.allWrites().p99Ms(), rb.allWrites().p99Ms()),
            Math.max(ra.allWrites().p99Ms(), rb.allWrites().p99Ms()));
    assertThat(m.verification().status()).isEqualTo("ok");
    assertThat(m.verification().albums()).isEqualTo(110);
    assertThat(report)
        .contains("merge of run " + RUN_ID + ": 2 runs")
        .contains("verified: 110 albums, 0 mismatches");
    assertThat(List.of(ra.runId(), rb.runId())).containsOnly(RUN_ID);
  }
}
