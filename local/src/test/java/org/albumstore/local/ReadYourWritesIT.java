package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.event.Identifiers;
import org.albumstore.consumer.AlbumStoreConsumer;
import org.albumstore.consumer.ConsumerSettings;
import org.albumstore.embedded.testing.Scrapes;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.local.AlbumStoreHttp.Answer;
import org.albumstore.server.AlbumStoreServer;
import org.albumstore.server.ReadCacheSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes across servers, the way the course's clients use the API behind a load balancer:
 * {@code POST /albums} on server A and, the moment its 200 arrives, {@code GET /albums/{albumID}}
 * on server B. Both servers publish to one queue, one real consumer applies it to the test
 * database; B has never seen the write. Every GET must be a 200 with the album, with and without an
 * Idempotency-Key (v7 and key-derived IDs).
 */
class ReadYourWritesIT {
  private static final int ALBUMS = 200;
  private static final int CLIENT_THREADS = 4;
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final byte[] IMAGE = new byte[3475];

  private static AmqpSettings amqp;
  private static DatabaseSettings db;
  private static AlbumStoreServer serverA;
  private static AlbumStoreServer serverB;
  private static AlbumStoreConsumer consumer;
  private static final Set<String> albums = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void start() throws Exception {
    amqp = TestServices.amqp("readYourWrites");
    db = TestServices.database();
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, db));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    // Counts cached for a minute: only the consumer's announcements can show a new review sooner.
    env.put(ReadCacheSettings.COUNTS.variable(), "1000");
    env.put(ReadCacheSettings.COUNTS_MAX_AGE_MS.variable(), "60000");
    serverA = AlbumStoreServer.start(Env.system().withOverrides(env));
    serverB = AlbumStoreServer.start(Env.system().withOverrides(env));
    consumer = AlbumStoreConsumer.start(ConsumerSettings.defaults(), amqp, db);
  }

  @AfterAll
  static void stop() throws Exception {
    if (consumer != null) {
      consumer.close();
    }
    for (AlbumStoreServer s : new AlbumStoreServer[] {serverA, serverB}) {
      if (s != null) {
        s.close();
      }
    }
    if (amqp != null) {
      TestServices.deleteTopology(amqp);
    }
    if (db != null && !albums.isEmpty()) {
      try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
          PreparedStatement rows =
              c.prepareStatement("DELETE FROM albums WHERE album_id = ANY (?)")) {
        rows.setArray(1, c.createArrayOf("text", albums.toArray()));
        rows.executeUpdate();
      }
    }
  }

  @Test
  void anAlbumPostedOnOneServerIsReadableOnAnotherTheMomentItsPostReturned() throws Exception {
    AlbumStoreHttp a = new AlbumStoreHttp(serverA.baseUrl());
    AlbumStoreHttp b = new AlbumStoreHttp(serverB.baseUrl());
    List<Callable<String>> tries = new ArrayList<>();
    for (int i = 0; i < ALBUMS; i++) {
      int n = i;
      // Half as the course's clients send them (no key: a v7 ID), half with a key (a v3 ID).
      String key = n % 2 == 0 ? null : "ryw-" + RUN + "-" + n;
      tries.add(() -> postThenGet(a, b, n, key));
    }
    ExecutorService clients = Executors.newFixedThreadPool(CLIENT_THREADS);
    List<String> failures = new ArrayList<>();
    try {
      for (Future<String> f : clients.invokeAll(tries, 5, TimeUnit.MINUTES)) {
        String failure = f.get();
        if (failure != null) {
          failures.add(failure);
        }
      }
    } finally {
      clients.shutdownNow();
    }

    assertThat(failures).as("GETs on server B that were not the album just posted").isEmpty();
    assertThat(albums).hasSize(ALBUMS);
    // Without a wait the test proves nothing: on B some GETs came before the consumer applied.
    assertThat(waitsAnswered(serverB)).as("GETs on B that waited for their album").isPositive();
  }

  /**
   * The consumer announces what it commits, and every server hears it: server A has its count of an
   * album cached (for a minute), a review is posted on B, and A shows it within seconds.
   */
  @Test
  void aReviewAppliedByTheConsumerShowsOnAServerThatHadTheOldCountCached() throws Exception {
    AlbumStoreHttp a = new AlbumStoreHttp(serverA.baseUrl());
    AlbumStoreHttp b = new AlbumStoreHttp(serverB.baseUrl());
    Answer posted =
        a.postAlbum(IMAGE, "{\"artist\":\"RYW IT\",\"title\":\"counts\",\"year\":\"2026\"}", null);
    String id = posted.json().get("albumID").asText();
    albums.add(id);
    assertThat(a.get("/albums/" + id).status()).isEqualTo(200);
    assertThat(a.get("/review/" + id).body()).isEqualTo("{\"likes\":\"0\",\"dislikes\":\"0\"}");

    assertThat(b.postReview("like", id, null).status()).isEqualTo(200);

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String counts;
    do {
      counts = a.get("/review/" + id).body();
    } while (!counts.contains("\"1\"") && System.nanoTime() < deadline);
    assertThat(counts).isEqualTo("{\"likes\":\"1\",\"dislikes\":\"0\"}");
  }

  /** Null when B answered the album just posted on A, else what went wrong. */
  private static String postThenGet(AlbumStoreHttp a, AlbumStoreHttp b, int n, String key)
      throws Exception {
    String title = "Read your writes " + RUN + " #" + n;
    Answer posted =
        a.postAlbum(
            IMAGE, "{\"artist\":\"RYW IT\",\"title\":\"" + title + "\",\"year\":\"2026\"}", key);
    if (posted.status() != 200) {
      return "POST #" + n + ": " + posted.status() + " " + posted.body();
    }
    String id = posted.json().get("albumID").asText();
    albums.add(id);
    Answer read = b.get("/albums/" + id);
    if (read.status() != 200) {
      return "GET #" + n + " " + id + ": " + read.status() + " " + read.body();
    }
    JsonNode album = read.json();
    if (!title.equals(album.get("title").asText())) {
      return "GET #" + n + " " + id + ": wrong album " + read.body();
    }
    if (key != null && !id.equals(Identifiers.albumIdForKey(key))) {
      return "POST #" + n + ": the ID is not the key's " + id;
    }
    return null;
  }

  /** Waiting GETs answered 200: found by the poller or announced by the consumer. */
  private static double waitsAnswered(AlbumStoreServer s) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(s.baseUrl() + "/metrics"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return Scrapes.sum(r.body(), "albumstore_read_wait_seconds_count", Map.of("outcome", "found"))
        + Scrapes.sum(
            r.body(), "albumstore_read_wait_seconds_count", Map.of("outcome", "announced"));
  }
}
