package org.albumstore.faults.nemesis;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.albumstore.common.config.DatabaseSettings;

/**
 * A slow database, on the stack's own database only: a statement trigger calling {@code pg_sleep}
 * before every insert into {@code albums} and {@code album_reviews}, so that each of the consumers'
 * batches waits before it applies (as on an overloaded or throttled instance), while reads go on at
 * full speed. The trigger is DDL, so it is on the synchronous standby too and outlives a failover;
 * each step is retried while a failover has the endpoint down. {@link #heal} drops it, safe to
 * repeat.
 */
final class SlowQueries {
  private static final String FUNCTION = "nemesis_slow_statement";
  private static final String[] TABLES = {"albums", "album_reviews"};
  private static final Duration RETRY_LIMIT = Duration.ofSeconds(90);

  private final DatabaseSettings db;
  private final int seconds;

  SlowQueries(DatabaseSettings db, int seconds) {
    this.db = db;
    this.seconds = seconds;
  }

  void slow() throws Exception {
    StringBuilder sql =
        new StringBuilder(
            "CREATE OR REPLACE FUNCTION "
                + FUNCTION
                + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep("
                + seconds
                + "); RETURN NULL; END $$;");
    for (String table : TABLES) {
      sql.append(" DROP TRIGGER IF EXISTS ").append(FUNCTION).append(" ON ").append(table);
      sql.append("; CREATE TRIGGER ").append(FUNCTION).append(" BEFORE INSERT ON ").append(table);
      sql.append(" FOR EACH STATEMENT EXECUTE FUNCTION ").append(FUNCTION).append("();");
    }
    run(sql.toString());
  }

  void heal() throws Exception {
    StringBuilder sql = new StringBuilder();
    for (String table : TABLES) {
      sql.append("DROP TRIGGER IF EXISTS ")
          .append(FUNCTION)
          .append(" ON ")
          .append(table)
          .append("; ");
    }
    sql.append("DROP FUNCTION IF EXISTS ").append(FUNCTION).append("();");
    run(sql.toString());
  }

  /** Runs {@code sql} in one transaction, retried while the database is unreachable. */
  private void run(String sql) throws Exception {
    long deadline = System.nanoTime() + RETRY_LIMIT.toNanos();
    String url = db.jdbcUrl() + (db.jdbcUrl().contains("?") ? "&" : "?") + "connectTimeout=5";
    while (true) {
      try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
          Statement s = c.createStatement()) {
        c.setAutoCommit(false);
        s.execute(sql);
        c.commit();
        return;
      } catch (SQLException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(500);
      }
    }
  }
}
