package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.db.Databases;
import org.albumstore.common.testing.TestServices;
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
    db = Databases.pool(TestServices.database(), "it-reads", 1);
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
