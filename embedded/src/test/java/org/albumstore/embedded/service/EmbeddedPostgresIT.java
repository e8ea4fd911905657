package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.embedded.internal.PostgresAdmin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded PostgreSQL runs the project's schema and statements. One server for the class. */
class EmbeddedPostgresIT {
  private static EmbeddedPostgres postgres;
  private static HikariDataSource pool;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.start();
    pool = Databases.pool(postgres.settings(), "it-embedded-pg", 2);
    Schema.apply(pool);
  }

  @AfterAll
  static void stop() throws Exception {
    try (EmbeddedPostgres database = postgres) {
      if (pool != null) {
        pool.close();
      }
    }
  }

  @Test
  void servesTheAlbumstoreDatabaseOnLoopbackAsPostgres() {
    DatabaseSettings s = postgres.settings();

    assertThat(s.jdbcUrl())
        .isEqualTo("jdbc:postgresql://127.0.0.1:" + postgres.port() + "/albumstore");
    assertThat(s.user()).isEqualTo("postgres");
    assertThat(postgres.version()).startsWith("16.");
  }

  @Test
  void schemaAppliesTwiceAndStoresAndReadsAnAlbum() throws Exception {
    Schema.apply(pool); // every runnable applies it at start-up

    try (Connection c = pool.getConnection()) {
      try (PreparedStatement insert =
          c.prepareStatement(
              "INSERT INTO albums (album_id, artist, title, year, image, image_size)"
                  + " VALUES (?, ?, ?, ?, ?, ?)")) {
        insert.setString(1, "embedded-pg-it-1");
        insert.setString(2, "Sex Pistols");
        insert.setString(3, "Never Mind The Bollocks!");
        insert.setString(4, "1977");
        insert.setBytes(5, new byte[] {1, 2, 3});
        insert.setInt(6, 3);
        assertThat(insert.executeUpdate()).isEqualTo(1);
      }
      try (PreparedStatement select =
              c.prepareStatement("SELECT artist, image_size FROM albums WHERE album_id = ?");
          ResultSet rs = query(select, "embedded-pg-it-1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("Sex Pistols");
        assertThat(rs.getInt(2)).isEqualTo(3);
      }
    }
  }

  @Test
  void commitsAreDurableAsPostgresShipsThem() throws Exception {
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT current_setting('synchronous_commit'), current_setting('fsync')")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("on");
      assertThat(rs.getString(2)).isEqualTo("on");
    }
  }

  @Test
  void anotherDatabaseCanBeCreatedOnceAndUsed() throws Exception {
    DatabaseSettings admin = postgres.settings("postgres");

    assertThat(PostgresAdmin.createDatabaseIfMissing(admin, "albumstore_extra")).isTrue();
    assertThat(PostgresAdmin.createDatabaseIfMissing(admin, "albumstore_extra")).isFalse();
    try (HikariDataSource other = Databases.pool(postgres.settings("albumstore_extra"), "it-x", 1);
        Connection c = other.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT current_database()")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("albumstore_extra");
    }
  }

  private static ResultSet query(PreparedStatement ps, String id) throws Exception {
    ps.setString(1, id);
    return ps.executeQuery();
  }
}
