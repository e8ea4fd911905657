package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.db.Databases;
import org.albumstore.embedded.testing.Locks;
import org.albumstore.embedded.testing.Scrapes;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.server.internal.read.ReadGroupSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The GETs against rows written straight into the test database (unique album IDs per run). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadPathIT {
  private final String run = "readit-" + UUID.randomUUID().toString().substring(0, 8);
  private AmqpSettings amqp;
  private HikariDataSource db;
  private AlbumStoreServer server;
  private Api api;

  @BeforeAll
  void start() {
    amqp = TestServices.amqp("server.reads");
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    api = new Api(server.baseUrl());
    db = Databases.pool(TestServices.database(), "it-reads", 2); // one holds a lock
  }

  @AfterAll
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    try (Connection c = db.getConnection();
        PreparedStatement a = c.prepareStatement("DELETE FROM albums WHERE album_id LIKE ?");
        PreparedStatement r =
            c.prepareStatement("DELETE FROM album_reviews WHERE album_id LIKE ?")) {
      a.setString(1, run + "%");
      a.executeUpdate();
      r.setString(1, run + "%");
      r.executeUpdate();
    } finally {
      db.close();
      TestServices.deleteTopology(amqp);
    }
  }

  @Test
  void anAlbumsProfileIsReturnedWithUnicodeIntact() throws Exception {
    String id = run + "-album";
    insertAlbum(id, "Björk 🎵", "Homogenic \"live\"", "1997");
    Api.Reply r = api.get("/albums/" + id);
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("Content-Type")).startsWith("application/json");
    assertThat(r.json())
        .isEqualTo(Map.of("artist", "Björk 🎵", "title", "Homogenic \"live\"", "year", "1997"));
  }

  @Test
  void anUnknownAlbumIs404() throws Exception {
    Api.Reply r = api.get("/albums/" + run + "-nothing");
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.json().get("msg")).contains("no album");
  }

  @Test
  void reviewCountsOfAReviewedAlbumAreReturnedAsStrings() throws Exception {
    String id = run + "-reviewed";
    insertAlbum(id, "a", "t", "2000");
    insertCounts(id, 7, 3);
    Api.Reply r = api.get("/review/" + id);
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json()).isEqualTo(Map.of("likes", "7", "dislikes", "3"));
  }

  @Test
  void anExistingAlbumWithoutReviewsHasZeros() throws Exception {
    String id = run + "-quiet";
    insertAlbum(id, "a", "t", "2000");
    Api.Reply r = api.get("/review/" + id);
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json()).isEqualTo(Map.of("likes", "0", "dislikes", "0"));
  }

  @Test
  void reviewsOfAnAlbumTheClientNumbersItselfAreReturnedWithoutAnAlbumRow() throws Exception {
    String id = run + "-42";
    insertCounts(id, 2, 1);
    assertThat(api.get("/review/" + id).json()).isEqualTo(Map.of("likes", "2", "dislikes", "1"));
  }

  @Test
  void neitherAlbumNorReviewsIs404() throws Exception {
    Api.Reply r = api.get("/review/" + run + "-unknown");
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.json().get("msg")).isNotBlank();
  }

  /**
   * Queries that wait on the locked counters before the rest queue: the lone ones, the reader's.
   */
  private static final int ON_THE_LOCK = ReadGroupSettings.LONE_MAX.defaultValue() + 1;

  /**
   * GETs that arrive while the reader's query waits go together as the next group, and each gets
   * its own album's answer from the one statement (counters, zeros for an album without reviews, an
   * album the client numbers itself, 404). Staged behind locked counters, each step awaited on
   * PostgreSQL's lock waits or the server's own gauge, never timed: three GETs ask alone (the
   * default --read-lone-max), one is the reader's group of one, and the other 7 queue; so 11 GETs
   * take exactly 5 queries.
   */
  @Test
  void getsArrivingTogetherAreAnsweredByOneQueryEachWithItsOwnAnswer() throws Exception {
    Map<String, String> expected = new LinkedHashMap<>();
    for (int i = 0; i < 8; i++) {
      String id = run + "-group-" + i;
      insertAlbum(id, "a", "t", "2000");
      insertCounts(id, i, 1);
      expected.put(id, "{\"likes\":\"" + i + "\",\"dislikes\":\"1\"}");
    }
    insertAlbum(run + "-group-quiet", "a", "t", "2000");
    expected.put(run + "-group-quiet", "{\"likes\":\"0\",\"dislikes\":\"0\"}");
    insertCounts(run + "-group-numbered", 2, 0);
    expected.put(run + "-group-numbered", "{\"likes\":\"2\",\"dislikes\":\"0\"}");
    expected.put(run + "-group-unknown", null);
    List<String> ids = new ArrayList<>(expected.keySet());
    String metrics = api.get("/metrics").body();
    double queries = Scrapes.sum(metrics, "albumstore_read_group_queries_total", Map.of());
    double answered = Scrapes.sum(metrics, "albumstore_read_group_reads_total", Map.of());
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    Map<String, CompletableFuture<HttpResponse<String>>> reads = new HashMap<>();
    try (Connection lock = db.getConnection()) {
      lock.setAutoCommit(false);
      try (Statement st = lock.createStatement()) {
        st.execute("LOCK TABLE album_reviews IN ACCESS EXCLUSIVE MODE");
      }
      int lockPid = Locks.backendPid(lock);
      for (int i = 0; i < ids.size(); i++) {
        String id = ids.get(i);
        reads.put(
            id,
            http.sendAsync(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/review/" + id)).build(),
                BodyHandlers.ofString()));
        if (i < ON_THE_LOCK) { // the lone GETs' queries, then the reader's group of one
          awaitCount("queries waiting on the lock", i + 1, () -> Locks.waitingOn(db, lockPid));
        }
      }
      awaitCount(
          "GETs queued",
          ids.size() - ON_THE_LOCK,
          () ->
              (int)
                  Scrapes.sum(
                      api.get("/metrics").body(), "albumstore_read_group_queued", Map.of()));
      lock.rollback();
    }
    for (Map.Entry<String, String> e : expected.entrySet()) {
      HttpResponse<String> r = reads.get(e.getKey()).get(10, TimeUnit.SECONDS);
      if (e.getValue() == null) {
        assertThat(r.statusCode()).isEqualTo(404);
      } else {
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(e.getValue());
      }
    }
    metrics = api.get("/metrics").body();
    assertThat(Scrapes.sum(metrics, "albumstore_read_group_reads_total", Map.of()) - answered)
        .isEqualTo(expected.size());
    assertThat(Scrapes.sum(metrics, "albumstore_read_group_queries_total", Map.of()) - queries)
        .as("queries for %d GETs: alone, the reader's first group, the queued", expected.size())
        .isEqualTo(ON_THE_LOCK + 1);
  }

  /** Waits (10 s at most) until {@code count} reaches {@code n}; then it must be exactly that. */
  private static void awaitCount(String what, int n, Callable<Integer> count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int seen;
    while ((seen = count.call()) < n) {
      assertThat(System.nanoTime()).as("%s: %d of %d", what, seen, n).isLessThan(deadline);
      Thread.sleep(10);
    }
    assertThat(seen).as(what).isEqualTo(n);
  }

  @Test
  void anUnreachableDatabaseIs503WithAMsgAndHealthSaysWhich() throws Exception {
    AmqpSettings own = TestServices.amqp("server.noDatabase");
    Map<String, String> env = new HashMap<>(TestServices.overrides(own, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    env.put(
        CommonSettings.JDBC_URL.variable(),
        "jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=1");
    try (AlbumStoreServer noDb = AlbumStoreServer.start(Env.system().withOverrides(env))) {
      Api other = new Api(noDb.baseUrl());
      Api.Reply r = other.get("/review/" + run + "-x");
      assertThat(r.status()).isEqualTo(503);
      assertThat(r.json().get("msg")).contains("database");
      assertThat(r.body()).doesNotContain("SQL", "jdbc", "Exception");
      Api.Reply health = other.get("/health");
      assertThat(health.status()).isEqualTo(503);
      assertThat(health.json())
          .isEqualTo(Map.of("status", "DOWN", "broker", "UP", "database", "DOWN"));
    } finally {
      TestServices.deleteTopology(own);
    }
  }

  /**
   * A slow database holds no more request threads than {@code --read-inline-max}: with every album
   * read stuck behind a locked table, the queries beyond it wait for a read thread without a
   * request thread, the ones beyond the queue's bound get 503 at once, and a write is still
   * answered, all while the reads wait. Without the bound, every request thread would be waiting on
   * the database (2 in a query, the others for a connection) until the query timeout (5 s) failed
   * the first reads, and the write only then got a thread.
   */
  @Test
  void albumReadsStuckOnALockedTableLeaveRequestThreadsForWrites() throws Exception {
    String id = run + "-locked-album";
    insertAlbum(id, "artist", "title", "2001");
    try (StuckReads stuck = new StuckReads("albums")) {
      stuck.send(12, "/albums/" + id);
      // 2 query on their request threads (and block), 2 wait on the read threads for a permit,
      // 6 wait in the queue, and 2 find no room.
      stuck.awaitRefusedAndQueued(2, "albumstore_read_queued", 6);
      assertThat(stuck.refused()).as("reads answered while the table was locked").hasSize(2);
      assertThat(stuck.write(id).status()).isEqualTo(200);
      stuck.unlock();
      for (HttpResponse<String> r : stuck.answeredAfterTheLock()) {
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"artist\":\"artist\"");
      }
      assertThat(stuck.gauge("albumstore_read_queued")).isZero();
    }
  }

  /**
   * A {@code GET /review} holds no request thread while its group read waits: with the counters
   * locked, one GET asks alone on its request thread and every other one waits without a thread
   * (the reader's group, then the queue): 8 of 30 such GETs wait at once on a server of 4 request
   * threads, and a write is answered while they wait; beyond {@code --read-queue-max} queued, a GET
   * is refused at once with 503. Staged on PostgreSQL's lock waits: the lone GET, the reader's
   * group of one, then the other 28 at once.
   */
  @Test
  void reviewReadsStuckOnALockedTableHoldNoRequestThread() throws Exception {
    String id = run + "-locked-counts";
    insertCounts(id, 2, 1);
    try (StuckReads stuck = new StuckReads("album_reviews")) {
      String path = "/review/" + id;
      stuck.send(1, path);
      stuck.awaitQueriesOnTheLock(1);
      stuck.send(1, path);
      stuck.awaitQueriesOnTheLock(2);
      stuck.send(28, path);
      stuck.awaitRefusedAndQueued(28 - 6, "albumstore_read_group_queued", 6);
      assertThat(stuck.write(id).status()).isEqualTo(200);
      stuck.unlock();
      // One alone, one in the reader's group, 6 queued: answered. The other 22 refused.
      int answered = 0;
      for (HttpResponse<String> r : stuck.all()) {
        if (r.statusCode() == 200) {
          assertThat(r.body()).isEqualTo("{\"likes\":\"2\",\"dislikes\":\"1\"}");
          answered++;
        } else {
          StuckReads.assertRefused(r);
        }
      }
      assertThat(answered).isEqualTo(1 + 1 + 6);
      assertThat(stuck.gauge("albumstore_read_group_queued")).isZero();
    }
  }

  /**
   * A server of 4 request threads, 2 read connections, {@code --read-inline-max 2} and {@code
   * --read-queue-max 6}, with {@code table} locked; {@link #send} sends GETs at once.
   */
  private final class StuckReads implements AutoCloseable {
    private final AmqpSettings own = TestServices.amqp("server.slowDatabase");
    private final AlbumStoreServer small;
    private final Connection lock;
    private final int lockPid;
    private final HttpClient http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Api api;
    private final List<CompletableFuture<HttpResponse<String>>> reads = new ArrayList<>();
    private List<HttpResponse<String>> refused = List.of();

    StuckReads(String table) throws Exception {
      Map<String, String> env = new HashMap<>(TestServices.overrides(own, TestServices.database()));
      env.put(CommonSettings.HTTP_PORT.variable(), "0");
      env.put(ServerSettings.HTTP_THREADS.variable(), "4");
      env.put(ServerSettings.DB_POOL_SIZE.variable(), "2");
      env.put(ServerSettings.READ_INLINE_MAX.variable(), "2");
      env.put(ServerSettings.READ_QUEUE_MAX.variable(), "6");
      small = AlbumStoreServer.start(Env.system().withOverrides(env));
      api = new Api(small.baseUrl());
      lock = db.getConnection();
      lock.setAutoCommit(false);
      try (Statement st = lock.createStatement()) {
        st.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
      }
      lockPid = Locks.backendPid(lock);
    }

    void send(int n, String path) {
      for (int i = 0; i < n; i++) {
        reads.add(
            http.sendAsync(
                HttpRequest.newBuilder(URI.create(small.baseUrl() + path)).build(),
                BodyHandlers.ofString()));
      }
    }

    void awaitQueriesOnTheLock(int n) throws Exception {
      awaitCount("queries waiting on the lock", n, () -> Locks.waitingOn(db, lockPid));
    }

    /** Waits until at least {@code n} reads were answered and {@code queued} shows {@code q}. */
    void awaitRefusedAndQueued(int n, String queued, int q) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (reads.stream().filter(CompletableFuture::isDone).count() < n || gauge(queued) < q) {
        assertThat(System.nanoTime()).as("%d refused and %d queued", n, q).isLessThan(deadline);
        Thread.sleep(10);
      }
      refused =
          reads.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join).toList();
      refused.forEach(StuckReads::assertRefused);
    }

    static void assertRefused(HttpResponse<String> r) {
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(r.body()).contains("too many reads are waiting for the database");
    }

    /** Every read's answer, once each has one. */
    List<HttpResponse<String>> all() throws Exception {
      List<HttpResponse<String>> all = new ArrayList<>();
      for (CompletableFuture<HttpResponse<String>> f : reads) {
        all.add(f.get(10, TimeUnit.SECONDS));
      }
      return all;
    }

    List<HttpResponse<String>> refused() {
      return refused;
    }

    Api.Reply write(String albumId) throws Exception {
      return api.post("/review/like/" + albumId);
    }

    void unlock() throws Exception {
      lock.rollback();
    }

    /** The reads not refused before the write, each answered once the lock went. */
    List<HttpResponse<String>> answeredAfterTheLock() throws Exception {
      List<HttpResponse<String>> answered = new ArrayList<>(all());
      answered.removeAll(refused);
      return answered;
    }

    double gauge(String name) throws Exception {
      return Scrapes.sum(api.get("/metrics").body(), name, Map.of());
    }

    @Override
    public void close() throws Exception {
      try {
        lock.rollback();
        lock.close();
        small.close();
      } finally {
        TestServices.deleteTopology(own);
      }
    }
  }

  private void insertAlbum(String id, String artist, String title, String year) throws Exception {
    try (Connection c = db.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO albums (album_id, artist, title, year, image, image_size)"
                    + " VALUES (?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, id);
      ps.setString(2, artist);
      ps.setString(3, title);
      ps.setString(4, year);
      ps.setBytes(5, new byte[] {1, 2, 3});
      ps.setInt(6, 3);
      ps.executeUpdate();
    }
  }

  private void insertCounts(String id, long likes, long dislikes) throws Exception {
    try (Connection c = db.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO album_reviews (album_id, likes, dislikes) VALUES (?, ?, ?)")) {
      ps.setString(1, id);
      ps.setLong(2, likes);
      ps.setLong(3, dislikes);
      ps.executeUpdate();
    }
  }
}
