package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.ApiClient.Reply;
import org.albumstore.faults.harness.Bodies;
import org.albumstore.faults.harness.Multipart;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Security basics on the database side: SQL only through bound parameters, proven at run time with
 * hostile profile values that are stored and read back verbatim while every table survives ({@code
 * BoundParametersTest} checks the source), and the TLS option of the database URL ({@code sslmode})
 * reaching the driver ({@code TlsOptionsTest} covers {@code amqps://}).
 */
class DatabaseSecurityIT {
  @Test
  void hostileValuesAreStoredAsDataAndNeverRunAsSql() throws Exception {
    List<String> hostile =
        List.of(
            "O'Brien'); DROP TABLE albums;--",
            "1' OR '1'='1",
            "\\'; SELECT pg_sleep(30);--",
            "$$; DELETE FROM album_reviews; $$",
            "Robert\"); DROP TABLE applied_reviews; --",
            "%' OR album_id LIKE '%",
            "E'\\x27'::text");
    Map<String, String> albums = new LinkedHashMap<>();
    try (Stack stack = Stack.create("sec-sql")) {
      stack.startServer(Map.of());
      stack.startConsumer();
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 4, Timeout.ofSeconds(15));
          HikariDataSource ds = Databases.pool(stack.db, "faults-sec-sql", 1)) {
        try {
          for (int i = 0; i < hostile.size(); i++) {
            String text = hostile.get(i);
            Reply r =
                api.postAlbum(
                    stack.runId + "-a" + i,
                    Multipart.album(Multipart.IMAGE, Multipart.jsonProfile(text, text, "1977")));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            String id = Bodies.field(r.body(), "albumID").asText();
            albums.put(id, text);
            assertThat(api.vote("like", id, stack.runId + "-l" + i).status()).isEqualTo(200);
          }
          for (Map.Entry<String, String> e : albums.entrySet()) {
            Reply a = awaitOk(api, "/albums/" + e.getKey());
            assertThat(Bodies.field(a.body(), "artist").asText()).isEqualTo(e.getValue());
            assertThat(Bodies.field(a.body(), "title").asText()).isEqualTo(e.getValue());
            // The album and its like may travel in different messages: wait for the like too.
            Reply c = await(api, "/review/" + e.getKey(), "{\"likes\":\"1\",\"dislikes\":\"0\"}");
            assertThat(c.body()).isEqualTo("{\"likes\":\"1\",\"dislikes\":\"0\"}");
          }
          assertThat(
                  api.get("/review/" + URLEncoder.encode("1' OR '1'='1", StandardCharsets.UTF_8))
                      .status())
              .isEqualTo(400);
          try (Connection c = ds.getConnection()) {
            for (String table : List.of("albums", "album_reviews", "applied_reviews")) {
              try (ResultSet rs =
                  c.createStatement().executeQuery("SELECT count(*) FROM " + table)) {
                assertThat(rs.next()).as(table + " still exists").isTrue();
              }
            }
          }
        } finally {
          deleteAlbums(ds, albums.keySet());
        }
      }
    }
    Summary.record(
        "security (SQL): "
            + hostile.size()
            + " hostile profiles stored and read back verbatim, tables intact");
  }

  @Test
  void theDatabaseUrlsSslmodeReachesTheDriver() throws Exception {
    DatabaseSettings db = TestServices.database();
    String sep = db.jdbcUrl().contains("?") ? "&" : "?";
    try (HikariDataSource off =
            Databases.pool(with(db, sep + "sslmode=disable"), "faults-ssl-off", 1);
        Connection c = off.getConnection()) {
      assertThat(ssl(c)).as("sslmode=disable: a plain connection").isFalse();
    }
    String outcome;
    try (HikariDataSource required =
        Databases.pool(with(db, sep + "sslmode=require"), "faults-ssl-on", 1)) {
      try (Connection c = required.getConnection()) {
        assertThat(ssl(c)).as("sslmode=require: an encrypted connection").isTrue();
        outcome = "TLS connection";
      } catch (SQLException e) {
        // A server without TLS refuses the requirement: the setting reached the driver.
        assertThat(messages(e)).contains("SSL");
        outcome = "refused by a server without TLS: " + firstSsl(e);
      }
    }
    Summary.record("security (database TLS): sslmode=disable plain, sslmode=require " + outcome);
  }

  private static DatabaseSettings with(DatabaseSettings db, String params) {
    return new DatabaseSettings(db.jdbcUrl() + params, db.user(), db.password());
  }

  private static boolean ssl(Connection c) throws SQLException {
    try (ResultSet rs =
        c.createStatement()
            .executeQuery("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
      return rs.next() && rs.getBoolean(1);
    }
  }

  private static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append(" | ");
    }
    return b.toString();
  }

  private static String firstSsl(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("SSL")) {
        return t.getMessage();
      }
    }
    return e.toString();
  }

  private static Reply awaitOk(ApiClient api, String path) throws Exception {
    return await(api, path, null);
  }

  /** GETs {@code path} until it answers 200 (with exactly {@code body}, if given); 60 s at most. */
  private static Reply await(ApiClient api, String path, String body) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      Reply r = api.get(path);
      boolean done = r.status() == 200 && (body == null || body.equals(r.body()));
      if (done || System.nanoTime() > deadline) {
        assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
        return r;
      }
      Thread.sleep(100);
    }
  }

  private static void deleteAlbums(HikariDataSource ds, java.util.Collection<String> ids)
      throws SQLException {
    try (Connection c = ds.getConnection()) {
      for (String sql :
          List.of(
              "DELETE FROM album_reviews WHERE album_id = ANY(?)",
              "DELETE FROM albums WHERE album_id = ANY(?)")) {
        try (var ps = c.prepareStatement(sql)) {
          ps.setArray(1, c.createArrayOf("text", ids.toArray()));
          ps.executeUpdate();
        }
      }
    }
  }
}
