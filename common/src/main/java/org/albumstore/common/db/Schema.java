package org.albumstore.common.db;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code schema.sql} (the copy at the repository root is packaged into this module's jar).
 * The script is written to be safe to apply twice, so calling this at every start-up is harmless.
 *
 * <p>Online: the script runs in one transaction whose lock waits are bounded ({@link
 * #LOCK_TIMEOUT}). A DDL statement that has to lock a table (an expand's {@code ADD COLUMN}) waits
 * behind the transactions that use it, and every writer that comes after waits behind it: an
 * unbounded wait would stop writes for as long as the longest transaction runs. So a lock not had
 * within the bound gives up (SQLSTATE 55P03), the transaction rolls back, and the script runs again
 * after a pause, up to {@link #ATTEMPTS} times. A re-apply of a script already applied takes no
 * such lock at all (schema.sql asks the catalog first).
 */
public final class Schema {
  public static final String RESOURCE = "/schema.sql";

  /** How long one statement of the script waits for a table lock before the attempt gives up. */
  public static final Duration LOCK_TIMEOUT = Duration.ofMillis(500);

  /** Attempts before the failure is the caller's; the pauses between them total about a minute. */
  public static final int ATTEMPTS = 40;

  private static final String LOCK_NOT_AVAILABLE = "55P03";

  private static final Logger log = LoggerFactory.getLogger(Schema.class);

  private Schema() {}

  public static String sql() {
    try (InputStream in = Schema.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  /** Applies the script; returns the attempts it took (1 unless a table lock was busy). */
  public static int apply(DataSource ds) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try {
        applyOnce(ds);
        return attempt;
      } catch (SQLException e) {
        if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState()) || attempt == ATTEMPTS) {
          throw e;
        }
        log.info(
            "schema.sql: a table lock was busy for {} (attempt {}); retrying",
            LOCK_TIMEOUT,
            attempt);
        pause(attempt);
      }
    }
  }

  /**
   * Whether the database holds what this release writes: the columns of the last expand
   * (schema.sql's {@code album_reviews.last_review_at}). False only on a definite answer; a
   * database that cannot be asked throws.
   */
  public static boolean isExpanded(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass('album_reviews')"
                    + " AND attname = 'last_review_at' AND NOT attisdropped")) {
      return rs.next() && rs.getLong(1) == 1;
    }
  }

  private static void applyOnce(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        // SET LOCAL: the bound ends with the transaction, so a pooled connection keeps none of it.
        st.execute("SET LOCAL lock_timeout = '" + LOCK_TIMEOUT.toMillis() + "ms'");
        // The PostgreSQL driver runs a multi-statement script in one simple-query round trip.
        st.execute(sql());
        c.commit();
      } catch (SQLException | RuntimeException e) {
        try {
          c.rollback();
        } catch (SQLException broken) {
          e.addSuppressed(broken); // the pool discards a broken connection
        }
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    }
  }

  /** A pause that grows from 0.2 s to 2 s: the transactions in the way are a consumer's batches. */
  private static void pause(int attempt) throws SQLException {
    try {
      Thread.sleep(Math.min(2_000, 200L * attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting to apply schema.sql again", e);
    }
  }
}
