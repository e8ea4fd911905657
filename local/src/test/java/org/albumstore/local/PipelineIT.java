package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.consumer.AlbumStoreConsumer;
import org.albumstore.consumer.ConsumerSettings;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.local.AlbumStoreHttp.Answer;
import org.albumstore.server.AlbumStoreServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole write path, from the outside: HTTP into the real server, through the broker, applied by
 * the real consumer into PostgreSQL, and read back over HTTP. Server and consumer share a queue of
 * this class's own; every album and idempotency key is new, so nothing here depends on or disturbs
 * other tests' data.
 */
class PipelineIT {
  /** How long a write may take to become visible: generous, the machine is shared. */
  private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(60);

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final byte[] IMAGE = new byte[3475];

  private static AmqpSettings amqp;
  private static DatabaseSettings db;
  private static AlbumStoreServer server;
  private static AlbumStoreConsumer consumer;
  private static ExecutorService clients;
  private static AlbumStoreHttp api;
  private static final Set<String> albums = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void start() throws Exception {
    new Random(3475).nextBytes(IMAGE);
    amqp = TestServices.amqp("pipeline");
    db = TestServices.database();
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, db));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    consumer = AlbumStoreConsumer.start(ConsumerSettings.defaults(), amqp, db);
    clients = Executors.newFixedThreadPool(32);
    api = new AlbumStoreHttp(server.baseUrl());
  }

  @AfterAll
  static void stop() throws Exception {
    if (clients != null) {
      clients.shutdownNow();
      clients.awaitTermination(10, TimeUnit.SECONDS);
    }
    if (consumer != null) {
      consumer.close();
    }
    if (server != null) {
      server.close();
    }
    if (amqp != null) {
      TestServices.deleteTopology(amqp);
    }
    if (db != null && !albums.isEmpty()) {
      try (Connection c = connect();
          PreparedStatement reviews =
              c.prepareStatement("DELETE FROM album_reviews WHERE album_id = ANY (?)");
          PreparedStatement rows =
              c.prepareStatement("DELETE FROM albums WHERE album_id = ANY (?)")) {
        Object[] ids = albums.toArray();
        reviews.setArray(1, c.createArrayOf("text", ids));
        reviews.executeUpdate();
        rows.setArray(1, c.createArrayOf("text", ids));
        rows.executeUpdate();
      }
    }
  }

  @Test
  void anAlbumPostedWithAJsonProfileBecomesReadableWithItsFields() throws Exception {
    String profile =
        "{\"artist\":\"Sex Pistols\",\"title\":\"Never Mind The Bollocks!\",\"year\":\"1977\"}";
    String id = createAlbum(profile, null);

    JsonNode album = awaitAlbum(id);
    assertThat(album.get("artist").asText()).isEqualTo("Sex Pistols");
    assertThat(album.get("title").asText()).isEqualTo("Never Mind The Bollocks!");
    assertThat(album.get("year").asText()).isEqualTo("1977");
  }

  @Test
  void anAlbumPostedWithTheOpenApiClientsProfileTextBecomesReadableWithItsFields()
      throws Exception {
    String profile =
        "class AlbumsProfile {\n"
            + "    artist: Björk\n"
            + "    title: Homogenic: Deluxe\n"
            + "    year: 1997\n"
            + "}";
    String id = createAlbum(profile, null);

    JsonNode album = awaitAlbum(id);
    assertThat(album.get("artist").asText()).isEqualTo("Björk");
    assertThat(album.get("title").asText()).isEqualTo("Homogenic: Deluxe");
    assertThat(album.get("year").asText()).isEqualTo("1997");
  }

  @Test
  void aThousandConcurrentReviewsEndWithExactlyThoseCounts() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int a = 0; a < 5; a++) {
      ids.add(createAlbum(jsonProfile("Concurrent " + a), null));
    }
    Map<String, long[]> expected = new HashMap<>();
    ids.forEach(id -> expected.put(id, new long[2]));
    List<Callable<Integer>> reviews = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      String id = ids.get(i % ids.size());
      boolean like = i % 3 != 0;
      expected.get(id)[like ? 0 : 1]++;
      String key = "pipeline-" + RUN + "-" + i;
      reviews.add(() -> reviewWithRetries(like ? "like" : "dislike", id, key));
    }

    List<Integer> statuses = new ArrayList<>();
    for (Future<Integer> f : clients.invokeAll(reviews, 120, TimeUnit.SECONDS)) {
      statuses.add(f.get());
    }

    assertThat(statuses).hasSize(1000).containsOnly(200);
    for (String id : ids) {
      long[] e = expected.get(id);
      awaitCounts(id, e[0], e[1]);
    }
  }

  @Test
  void aReviewSentTwiceWithOneIdempotencyKeyCountsOnce() throws Exception {
    String id = createAlbum(jsonProfile("Retried review"), null);
    awaitAlbum(id);
    String key = "pipeline-" + RUN + "-retried-like";

    assertThat(api.postReview("like", id, key).status()).isEqualTo(200);
    awaitCounts(id, 1, 0);
    long applied = settledMessagesApplied();
    assertThat(api.postReview("like", id, key).status()).isEqualTo(200);
    // The retry was confirmed on its own (after the first one's 200), so it is one more message;
    // once the consumer has committed it, the counter must not have moved.
    await("the retried review to be applied", () -> messagesApplied() > applied);

    assertThat(reviewCounts(id)).containsExactly(1L, 0L);
    assertThat(consumer.counters().deadLettered()).isZero();
  }

  @Test
  void anAlbumPostedTwiceWithOneIdempotencyKeyIsOneAlbumWithOneId() throws Exception {
    String key = "pipeline-" + RUN + "-retried-album";
    long applied = settledMessagesApplied();

    String first = createAlbum(jsonProfile("Retried album"), key);
    String second = createAlbum(jsonProfile("Retried album"), key);
    await("both posts to be applied", () -> messagesApplied() >= applied + 2);

    assertThat(second).isEqualTo(first);
    assertThat(awaitAlbum(first).get("title").asText()).isEqualTo("Retried album");
    try (Connection c = connect();
        PreparedStatement st =
            c.prepareStatement("SELECT count(*) FROM albums WHERE album_id = ?")) {
      st.setString(1, first);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(1);
      }
    }
    assertThat(consumer.counters().deadLettered()).isZero();
  }

  @Test
  void anExistingAlbumWithoutReviewsHasZeroCounts() throws Exception {
    String id = createAlbum(jsonProfile("Nobody reviewed this"), null);
    awaitAlbum(id);

    Answer counts = api.get("/review/" + id);
    assertThat(counts.status()).isEqualTo(200);
    assertThat(counts.json().get("likes").asText()).isEqualTo("0");
    assertThat(counts.json().get("dislikes").asText()).isEqualTo("0");
    assertThat(api.get("/review/never-" + RUN).status()).isEqualTo(404);
  }

  private static String jsonProfile(String title) {
    return "{\"artist\":\"Pipeline IT\",\"title\":\"" + title + "\",\"year\":\"2025\"}";
  }

  private static String createAlbum(String profile, String key) throws Exception {
    Answer a = api.postAlbum(IMAGE, profile, key);
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    JsonNode body = a.json();
    assertThat(body.get("imageSize").asText()).isEqualTo(Integer.toString(IMAGE.length));
    String id = body.get("albumID").asText();
    albums.add(id);
    return id;
  }

  /** A write answered 503 was not accepted; the same key makes the retry safe either way. */
  private static int reviewWithRetries(String vote, String id, String key) throws Exception {
    int status = 0;
    for (int attempt = 0; attempt < 5; attempt++) {
      status = api.postReview(vote, id, key).status();
      if (status != 503) {
        return status;
      }
      Thread.sleep(200);
    }
    return status;
  }

  private static JsonNode awaitAlbum(String id) throws Exception {
    long deadline = System.nanoTime() + VISIBLE_WITHIN.toNanos();
    Answer a;
    do {
      a = api.get("/albums/" + id);
      if (a.status() == 200) {
        return a.json();
      }
      Thread.sleep(50);
    } while (System.nanoTime() < deadline);
    throw new AssertionError("album " + id + " not readable; last answer " + a);
  }

  private static List<Long> reviewCounts(String id) throws Exception {
    Answer a = api.get("/review/" + id);
    if (a.status() != 200) {
      return List.of();
    }
    JsonNode n = a.json();
    return List.of(
        Long.parseLong(n.get("likes").asText()), Long.parseLong(n.get("dislikes").asText()));
  }

  private static void awaitCounts(String id, long likes, long dislikes) throws Exception {
    long deadline = System.nanoTime() + VISIBLE_WITHIN.toNanos();
    List<Long> counts;
    do {
      counts = reviewCounts(id);
      if (counts.equals(List.of(likes, dislikes))) {
        return;
      }
      Thread.sleep(50);
    } while (System.nanoTime() < deadline);
    throw new AssertionError(
        "album " + id + ": expected " + List.of(likes, dislikes) + ", last read " + counts);
  }

  private static long messagesApplied() {
    return consumer.counters().messagesApplied();
  }

  /** The consumer's applied-message count once nothing has moved it for half a second. */
  private static long settledMessagesApplied() throws InterruptedException {
    long last = messagesApplied();
    long stableSince = System.nanoTime();
    long deadline = stableSince + VISIBLE_WITHIN.toNanos();
    while (System.nanoTime() - stableSince < 500_000_000L && System.nanoTime() < deadline) {
      Thread.sleep(50);
      long now = messagesApplied();
      if (now != last) {
        last = now;
        stableSince = System.nanoTime();
      }
    }
    return last;
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + VISIBLE_WITHIN.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  private static Connection connect() throws Exception {
    return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
  }
}
