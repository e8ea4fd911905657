package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.albumstore.client.ClientMain;
import org.albumstore.client.ClientResult;
import org.albumstore.client.ManagementApiProbe;
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
 * The client against the real thing: the embedded server, the consumer, RabbitMQ and PostgreSQL, on
 * a queue of this test's own. Proves end to end that every acknowledged write ends up in the
 * database exactly once (the client's verification) and that the queue figures are read.
 */
class ClientIT {
  private static final String RMQ_API =
      System.getenv().getOrDefault("ALBUMSTORE_RMQ_API", "http://127.0.0.1:15672");

  @TempDir static Path dir;
  private static AmqpSettings amqp;
  private static AlbumStoreServer server;
  private static AlbumStoreConsumer consumer;

  @BeforeAll
  static void start() throws Exception {
    amqp = TestServices.declare(TestServices.amqp("client-e2e"));
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

  /** Whether the management API knows this test's queue (not so on the embedded Qpid broker). */
  private static boolean managementApiAnswers() {
    try {
      new ManagementApiProbe(RMQ_API, "/", amqp.queue(), "guest", "guest").sample();
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private static ClientResult client(ByteArrayOutputStream out, String... extra) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "--url",
                server.baseUrl(),
                "--queue",
                amqp.queue(),
                "--amqp-uri",
                amqp.uri(),
                "--drain-timeout",
                "60",
                "--no-progress"));
    args.addAll(List.of(extra));
    return ClientMain.execute(
        Env.of(Map.of()),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        System.err,
        args.toArray(String[]::new));
  }

  @Test
  void everyAcknowledgedWriteIsStoredAndReadBackWithTheQueueWatched() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Path runDir = dir.resolve("management-api");
    ClientResult r =
        client(
            out,
            "--rmq-api",
            RMQ_API,
            "--group-size",
            "4",
            "--groups",
            "2",
            "--delay",
            "0.5",
            "--iterations",
            "25",
            "--get-threads",
            "2",
            "--out",
            runDir.toString());

    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(r.exitCode()).as(report).isZero();
    RunSummary s = r.summary();
    assertThat(s.stats("POST /albums").ok()).isEqualTo(200);
    assertThat(s.stats("POST /review/like").ok()).isEqualTo(400);
    assertThat(s.stats("POST /review/dislike").ok()).isEqualTo(200);
    assertThat(s.allWrites().failed()).isZero();
    assertThat(s.verification().status()).isEqualTo("ok");
    assertThat(s.verification().albums()).isEqualTo(200);
    if (managementApiAnswers()) {
      assertThat(s.broker().source()).isEqualTo("management-api");
      assertThat(s.broker().drain()).isEqualTo("drained");
    } else { // e.g. the embedded Qpid broker of a machine without RabbitMQ
      assertThat(s.broker().source()).isEqualTo("amqp");
      assertThat(s.broker().drain()).isEqualTo("ready-empty");
    }
    assertThat(s.broker().maxDepth()).isNotNull();
    assertThat(report).contains("verified: 200 albums, 0 mismatches");
    try (Stream<String> rows = Files.lines(runDir.resolve("requests.csv"))) {
      assertThat(rows.count() - 1).isEqualTo(s.requests().stream().mapToLong(t -> t.count()).sum());
    }
  }

  @Test
  void withoutTheManagementApiTheAmqpFallbackWatchesTheQueue() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ClientResult r =
        client(
            out,
            "--rmq-api",
            "none",
            "--threads",
            "3",
            "--iterations",
            "10",
            "--out",
            dir.resolve("amqp").toString());
    assertThat(r.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(r.summary().broker().source()).isEqualTo("amqp");
    assertThat(r.summary().broker().drain()).isIn("ready-empty", "drained");
    assertThat(r.summary().verification().albums()).isEqualTo(30);
    assertThat(r.summary().verification().mismatches()).isZero();
  }

  @Test
  void thePostGetWorkloadReadsEveryAlbumTheMomentItWasCreatedWithoutAFailedGet() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Path runDir = dir.resolve("post-get");
    ClientResult r =
        client(
            out,
            "--rmq-api",
            "none",
            "--workload",
            "post-get",
            "--startup-phase",
            "--threads",
            "4",
            "--iterations",
            "25",
            "--out",
            runDir.toString());

    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(r.exitCode()).as(report).isZero();
    RunSummary s = r.summary();
    assertThat(s.settings().workload()).isEqualTo("post-get");
    assertThat(s.stats("POST /albums").ok()).isEqualTo(100);
    assertThat(s.stats("GET /albums").ok()).isEqualTo(100);
    assertThat(s.stats("GET /albums").failed()).isZero();
    // Not even one 404 retried: each GET came right after its POST's 200 and found the album.
    assertThat(s.stats("GET /albums").retries()).isZero();
    assertThat(s.stats("POST /review/like").count()).isZero();
    // The start-up phase's 10 x 100 albums are verified too, outside the statistics.
    assertThat(s.verification().status()).isEqualTo("ok");
    assertThat(s.verification().albums()).isEqualTo(1100);
    assertThat(report).contains("verified: 1100 albums, 0 mismatches");
    assertThat(report.lines()).anyMatch(l -> l.startsWith("GET /albums "));
    assertThat(Files.readString(runDir.resolve("summary.json"))).contains("\"GET /albums\"");
    try (Stream<String> rows = Files.lines(runDir.resolve("requests.csv"))) {
      assertThat(rows.filter(l -> l.contains(",GET /albums,")).count()).isEqualTo(100);
    }
  }
}
