package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The expand step of an upgrade, against the real database: on a database of its own whose schema
 * is the previous release's (no {@code album_reviews.last_review_at}), the new consumer refuses to
 * start and names the step; {@code schema} adds the column while a writer's transaction holds the
 * table (its lock wait bounded, retried until the transaction ends); then version 3 messages keep
 * each album's latest review time, and a redelivery or an older time moves it nowhere.
 */
class SchemaExpandIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private String name;
  private DatabaseSettings db;
  private HikariDataSource pool;
  private Fixture f;
  private AlbumStoreConsumer consumer;

  @BeforeEach
  void previousReleasesSchema() throws Exception {
    name = "albumstore_expand_" + UUID.randomUUID().toString().substring(0, 8);
    DatabaseSettings shared = TestServices.database();
    try (HikariDataSource admin = Databases.pool(shared, "it-admin", 1);
        Connection c = admin.getConnection();
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    }
    String url = shared.jdbcUrl().replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
    db = new DatabaseSettings(url, shared.user(), shared.password());
    pool = Databases.pool(db, "it-expand", 3);
    Schema.apply(pool);
    sql("ALTER TABLE album_reviews DROP COLUMN last_review_at");
    f = Fixture.create("schemaExpand", db);
  }

  @AfterEach
  void dropDatabase() throws Exception {
    if (consumer != null) {
      consumer.close();
    }
    f.close();
    pool.close();
    try (HikariDataSource admin = Databases.pool(TestServices.database(), "it-admin", 1);
        Connection c = admin.getConnection();
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }

  @Test
  void theConsumerRefusesAnOldSchemaAndTheExpandRunsBesideAWriter() throws Exception {
    assertThat(Schema.isExpanded(pool)).isFalse();
    assertThatThrownBy(() -> AlbumStoreConsumer.start(Fixture.settings(1, 1, 10, 10), f.amqp, db))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("last_review_at is missing")
        .hasMessageContaining("albumstore-consumer.jar schema");

    CompletableFuture<Void> writer = holdTheTable(Duration.ofSeconds(2));
    StringWriter out = new StringWriter();
    int exit = schemaCommand(out);

    assertThat(exit).as(out.toString()).isZero();
    assertThat(out.toString())
        .contains("schema.sql applied to " + db.jdbcUrl())
        .containsPattern("\\(([2-9]|[1-9][0-9]) attempts\\)");
    writer.get();
    assertThat(Schema.isExpanded(pool)).isTrue();
    assertThat(schemaCommand(new StringWriter())).as("applying it again").isZero();
  }

  @Test
  void version3KeepsEachAlbumsLatestReviewTimeOnce() throws Exception {
    Schema.apply(pool);
    String a = f.album(1);
    long t0 = Instant.parse("2026-12-07T10:00:00Z").toEpochMilli();
    WriteBundle late = votes(a, t0 + 5_000);
    f.publish(late);
    f.publish(votes(a, t0)); // an earlier accept that arrives later
    f.publish(late); // the same message again: a redelivery
    f.publish(
        new WriteBundle(
            2,
            1L,
            UUID.randomUUID(),
            List.of(),
            List.of(),
            List.of(new AlbumVotes(a, 1, 0)))); // a version 2 message: counts, no time

    consumer = AlbumStoreConsumer.start(Fixture.settings(1, 1, 10, 10), f.amqp, db);
    await("4 messages applied", WAIT, () -> consumer.counters().messagesApplied() == 4);

    assertThat(f.counts(a)).containsExactly(3, 0);
    assertThat(lastReviewAt(a)).isEqualTo(Instant.ofEpochMilli(t0 + 5_000));
  }

  private static WriteBundle votes(String album, long acceptedAtMillis) {
    return new WriteBundle(
        3,
        acceptedAtMillis,
        UUID.randomUUID(),
        List.of(),
        List.of(),
        List.of(new AlbumVotes(album, 1, 0)),
        Map.of(album, acceptedAtMillis));
  }

  /** A writer's transaction that holds a row lock on album_reviews for {@code length}. */
  private CompletableFuture<Void> holdTheTable(Duration length) throws Exception {
    Connection c = pool.getConnection();
    c.setAutoCommit(false);
    try (Statement st = c.createStatement()) {
      st.execute("INSERT INTO album_reviews (album_id, likes, dislikes) VALUES ('held', 1, 0)");
    }
    return CompletableFuture.runAsync(
        () -> {
          try (c) {
            Thread.sleep(length.toMillis());
            c.commit();
          } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private int schemaCommand(StringWriter out) {
    return new CommandLine(new ConsumerMain())
        .setOut(new PrintWriter(out, true))
        .setErr(new PrintWriter(out, true))
        .execute(
            "schema",
            "--jdbc-url",
            db.jdbcUrl(),
            "--db-user",
            db.user(),
            "--db-password",
            db.password());
  }

  private Instant lastReviewAt(String album) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT last_review_at FROM album_reviews WHERE album_id = ?")) {
      ps.setString(1, album);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).as("album_reviews row of %s", album).isTrue();
        return rs.getTimestamp(1).toInstant();
      }
    }
  }

  private void sql(String statement) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }
}
