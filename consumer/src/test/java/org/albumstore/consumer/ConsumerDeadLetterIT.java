package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.albumstore.consumer.Fixture.review;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Messages that can never be applied go to the dead-letter queue, with the reason; nothing else.
 */
class ConsumerDeadLetterIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private Fixture f;
  private AlbumStoreConsumer consumer;
  private final List<AutoCloseable> cleanups = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    if (f != null) {
      f.close();
    }
    for (int i = cleanups.size() - 1; i >= 0; i--) {
      cleanups.get(i).close();
    }
  }

  private static AMQP.BasicProperties props(String messageId) {
    return new AMQP.BasicProperties.Builder()
        .deliveryMode(2)
        .messageId(messageId)
        .headers(Map.of("x-test", "kept"))
        .build();
  }

  private static byte[] json(WriteBundle b, String from, String to) {
    String s = new String(EventCodec.encode(b), StandardCharsets.UTF_8);
    assertThat(s).contains(from);
    return s.replace(from, to).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void malformedMessagesAreDeadLetteredWithTheReasonAndTheGoodOnesAroundThemApplied(TestInfo info)
      throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    String a = f.album(0);
    byte[] garbage = {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, '{'};
    WriteBundle ok = Bundles.reviews(List.of(review(a, Vote.LIKE)));
    f.publish(Bundles.reviews(List.of(review(a, Vote.LIKE))));
    f.publish(garbage, props("garbage"));
    f.publish(Bundles.reviews(List.of(review(a, Vote.DISLIKE))));
    f.publish(json(ok, "\"version\":" + EventCodec.VERSION, "\"version\":99"), props("version-99"));
    f.publish(Bundles.reviews(List.of(review(a, Vote.LIKE))));
    f.publish(json(ok, "\"vote\":\"like\"", "\"vote\":\"meh\""), props("impossible-vote"));
    f.publish(new byte[0], props("empty"));
    f.publish(Bundles.reviews(List.of(review(a, Vote.LIKE))));

    // One batch holds all eight: the poison must not take the good ones with it.
    consumer = f.start(Fixture.settings(1, 1, 100, 100));
    await("4 dead letters", WAIT, () -> f.deadLetters() == 4);
    await("good ones applied", WAIT, () -> f.totalReviews() == 4);
    assertThat(f.counts(a)).containsExactly(3, 1);
    await("queue drained", WAIT, () -> f.ready() == 0);

    Map<String, String> reasons = new HashMap<>();
    Map<String, byte[]> bodies = new HashMap<>();
    try (Connection c = AmqpConnections.open(f.amqp, "it-dlq-reader");
        Channel ch = c.createChannel()) {
      for (int i = 0; i < 4; i++) {
        GetResponse r = ch.basicGet(f.amqp.deadLetterQueue(), true);
        String id = r.getProps().getMessageId();
        reasons.put(id, String.valueOf(r.getProps().getHeaders().get(Topology.REASON_HEADER)));
        bodies.put(id, r.getBody());
        assertThat(String.valueOf(r.getProps().getHeaders().get("x-test"))).isEqualTo("kept");
      }
    }
    assertThat(reasons.get("garbage")).startsWith("invalid message: undecodable body");
    assertThat(reasons.get("version-99")).contains("unknown version 99");
    assertThat(reasons.get("impossible-vote")).contains("neither like nor dislike");
    assertThat(reasons.get("empty")).contains("empty body");
    assertThat(bodies.get("garbage")).isEqualTo(garbage);

    // Still running: later messages are applied as usual.
    f.publish(Bundles.reviews(List.of(review(a, Vote.DISLIKE))));
    await("applied after the poison", WAIT, () -> f.totalReviews() == 5);
    assertThat(consumer.counters().deadLettered()).isEqualTo(4);
    assertThat(consumer.counters().messagesApplied()).isEqualTo(5);
  }

  /**
   * A value the codec accepts but the database refuses (here: a CHECK constraint added to a private
   * copy of the schema) fails its batch; the consumer splits the batch, applies the good messages
   * one by one and dead-letters only the one the database rejects, with its error.
   */
  @Test
  void aMessageTheDatabaseRejectsIsDeadLetteredAloneAfterTheBatchIsSplit(TestInfo info)
      throws Exception {
    DatabaseSettings shared = TestServices.database();
    String schema = "it_consumer_" + UUID.randomUUID().toString().substring(0, 8);
    try (HikariDataSource admin = Databases.pool(shared, "it-schema-admin", 1);
        var c = admin.getConnection();
        Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
    }
    cleanups.add(
        () -> {
          try (HikariDataSource admin = Databases.pool(shared, "it-schema-admin", 1);
              var c = admin.getConnection();
              Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA " + schema + " CASCADE");
          }
        });
    String sep = shared.jdbcUrl().contains("?") ? "&" : "?";
    DatabaseSettings db =
        new DatabaseSettings(
            shared.jdbcUrl() + sep + "currentSchema=" + schema, shared.user(), shared.password());
    try (HikariDataSource ds = Databases.pool(db, "it-schema-setup", 1)) {
      Schema.apply(ds);
      try (var c = ds.getConnection();
          Statement st = c.createStatement()) {
        st.execute("ALTER TABLE albums ADD CONSTRAINT no_rejects CHECK (artist <> 'Rejected')");
      }
    }
    f = Fixture.create(info.getTestMethod().orElseThrow().getName(), db);

    AlbumProfile good = new AlbumProfile("Accepted", "T", "1999");
    AlbumProfile bad = new AlbumProfile("Rejected", "T", "1999");
    byte[] img = {1, 2, 3};
    for (int i = 0; i < 3; i++) {
      String id = f.album(i);
      f.publish(
          new WriteBundle(
              EventCodec.VERSION,
              1L,
              List.of(new NewAlbum(id, good, img)),
              List.of(review(id, Vote.LIKE))));
    }
    WriteBundle poison =
        new WriteBundle(
            EventCodec.VERSION,
            1L,
            List.of(new NewAlbum(f.album(9), bad, img)),
            List.of(review(f.album(9), Vote.LIKE)));
    f.publish(EventCodec.encode(poison), props("db-poison"));
    f.publish(Bundles.reviews(List.of(review(f.album(0), Vote.DISLIKE))));

    // Also proves --init-schema: applying schema.sql again over the existing tables is harmless.
    ConsumerSettings s = new ConsumerSettings(1, 1, 100, 100, 200, 0, 1, true, 3600);
    consumer = f.start(s, f.amqp, db);
    await("1 dead letter", WAIT, () -> f.deadLetters() == 1);
    await("good ones applied", WAIT, () -> consumer.counters().messagesApplied() == 4);

    assertThat(f.albumRows()).isEqualTo(3);
    assertThat(f.counts(f.album(0))).containsExactly(1, 1);
    assertThat(f.counts(f.album(9))).isNull(); // the poison message changed nothing at all
    try (Connection c = AmqpConnections.open(f.amqp, "it-dlq-reader");
        Channel ch = c.createChannel()) {
      GetResponse r = ch.basicGet(f.amqp.deadLetterQueue(), true);
      assertThat(r.getProps().getMessageId()).isEqualTo("db-poison");
      assertThat(String.valueOf(r.getProps().getHeaders().get(Topology.REASON_HEADER)))
          .startsWith("rejected by the database: SQLState 23514")
          .contains("no_rejects");
    }
    await("queue drained", WAIT, () -> f.ready() == 0);
  }
}
