package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.client.ClientMain;
import org.albumstore.client.ClientResult;
import org.albumstore.client.history.HistoryCheck;
import org.albumstore.client.history.HistoryFile;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.consumer.AlbumStoreConsumer;
import org.albumstore.consumer.ConsumerSettings;
import org.albumstore.consumer.sql.AggregateWriter;
import org.albumstore.consumer.sql.BatchWriter;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.server.AlbumStoreServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operation history's checker end to end, against the real server, consumer, broker and
 * database: a run with readers and writers reading back is judged clean, and a consumer with a
 * planted exactly-once bug ({@link #countingRedeliveriesAgain}, through the consumer's writer seam,
 * {@link AggregateWriter}) is caught.
 *
 * <p>The duplicates that bug counts come from a second run with the first one's run ID: every one
 * of its writes carries an idempotency key the first run already had applied, as a client retrying
 * every write after losing all the answers would send them. A correct consumer applies none of them
 * again; the planted one counts each review again, and the checker must name them.
 */
class HistoryCheckIT {
  private static final int THREADS = 4;
  private static final int ITERATIONS = 15;

  @TempDir static Path dir;
  private static AmqpSettings amqp;
  private static DatabaseSettings db;
  private static AlbumStoreServer server;

  @BeforeAll
  static void start() throws Exception {
    amqp = TestServices.declare(TestServices.amqp("history-check"));
    db = TestServices.database();
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, db));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (amqp != null) {
      TestServices.deleteTopology(amqp);
    }
  }

  private record Run(ClientResult result, String report, Path dir) {}

  private static Run client(String runId, String name, String... extra) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Path runDir = dir.resolve(name);
    List<String> args =
        new ArrayList<>(
            List.of(
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
                "--jdbc-url",
                db.jdbcUrl(),
                "--db-user",
                db.user(),
                "--db-password",
                db.password(),
                "--drain-timeout",
                "20", // the planted bug's albums never agree: re-read until then
                "--no-progress",
                "--history",
                "--run-id",
                runId,
                "--threads",
                Integer.toString(THREADS),
                "--iterations",
                Integer.toString(ITERATIONS),
                "--out",
                runDir.toString()));
    args.addAll(List.of(extra));
    ClientResult r =
        ClientMain.execute(
            Env.of(Map.of()),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err,
            args.toArray(String[]::new));
    return new Run(r, out.toString(StandardCharsets.UTF_8), runDir);
  }

  /** {@code check-history DIR} on its own, as a user would run it after the fact. */
  private static Run checkHistory(Path runDir) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        ClientMain.execute(
                Env.of(Map.of()),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err,
                "check-history",
                runDir.toString(),
                "--jdbc-url",
                db.jdbcUrl(),
                "--db-user",
                db.user(),
                "--db-password",
                db.password())
            .exitCode();
    return new Run(new ClientResult(code, null), out.toString(StandardCharsets.UTF_8), runDir);
  }

  /** Keeps each invocation's keys, and so its albums, apart from earlier ones in the database. */
  private static String suffix() {
    return UUID.randomUUID().toString().substring(0, 8);
  }

  /**
   * The bug planted: before the real writer applies a batch, the ledger forgets the batch's
   * reviews, so a review it had applied already (a redelivery, a client's retry) moves its counter
   * again; the ledger row is written again with it.
   */
  private static AggregateWriter.Factory countingRedeliveriesAgain() {
    return pool -> {
      BatchWriter real = new BatchWriter(pool);
      return batch -> {
        try (Connection c = pool.getConnection();
            PreparedStatement forget =
                c.prepareStatement("DELETE FROM applied_reviews WHERE event_id = ANY (?)")) {
          forget.setArray(1, c.createArrayOf("uuid", batch.ledgerIds().toArray()));
          forget.executeUpdate();
        }
        return real.write(batch);
      };
    };
  }

  /** The first run, with reads, then the same writes again; returns the second run. */
  private static Run writeTwice(String runId, AggregateWriter.Factory writers) throws Exception {
    AlbumStoreConsumer consumer =
        AlbumStoreConsumer.start(
            AlbumStoreConsumer.Options.of(ConsumerSettings.defaults(), amqp, db)
                .withWriters(writers));
    try {
      Run first = client(runId, runId + "-first", "--read-back", "50", "--get-threads", "2");
      assertThat(first.result().exitCode()).as(first.report()).isZero();
      assertThat(first.report()).contains("history: no violation");
      assertThat(first.dir().resolve(HistoryFile.NAME)).isNotEmptyFile();
      // The readers and the writers reading back were judged, not only the writes.
      assertThat(first.report()).containsPattern("[1-9][0-9]* reads judged");
      return client(runId, runId + "-again");
    } finally {
      consumer.close();
    }
  }

  @Test
  void aCorrectConsumerAppliesEveryWriteOnceAndTheHistoryIsClean() throws Exception {
    Run again = writeTwice("hist-ok-" + suffix(), BatchWriter::new);
    assertThat(again.result().exitCode()).as(again.report()).isZero();
    assertThat(again.report()).contains("history: no violation");
    assertThat(Files.readString(again.dir().resolve(HistoryCheck.VERDICT_FILE)))
        .containsPattern("no lost write +ok")
        .containsPattern("no phantom +ok");
    Run check = checkHistory(again.dir());
    assertThat(check.result().exitCode()).as(check.report()).isZero();
  }

  @Test
  void aConsumerCountingRedeliveriesAgainIsCaughtByTheChecker() throws Exception {
    Run again = writeTwice("hist-bug-" + suffix(), countingRedeliveriesAgain());
    assertThat(again.result().exitCode()).as(again.report()).isEqualTo(1);
    Run check = checkHistory(again.dir());
    assertThat(check.result().exitCode()).as(check.report()).isEqualTo(1);
    // Every album's likes and dislikes were counted twice: two duplicates each (none lost),
    // named with the reviews involved, and more than any request asked for.
    int albums = THREADS * ITERATIONS;
    assertThat(check.report())
        .containsPattern("no lost write +ok")
        .containsPattern("no duplicate +" + 2 * albums + " violations")
        .contains("applied more than once")
        .contains("POST /review/like")
        .containsPattern("no phantom +" + 2 * albums + " violations")
        .contains("history: " + 4 * albums + " VIOLATIONS");
  }
}
