package org.albumstore.embedded.internal;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import org.albumstore.common.config.DatabaseSettings;

/** Creating a database, which has to be done from another database of the same server. */
public final class PostgresAdmin {
  /** SQL state of {@code CREATE DATABASE} when another process created it first. */
  private static final String DUPLICATE_DATABASE = "42P04";

  /** Names that need no quoting: the only ones this project creates. */
  private static final Pattern PLAIN_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private PostgresAdmin() {}

  /**
   * Creates {@code database} unless it exists.
   *
   * @param admin settings of a database that exists on the same server (usually {@code postgres})
   * @return true if this call created it
   */
  public static boolean createDatabaseIfMissing(DatabaseSettings admin, String database)
      throws SQLException {
    if (!PLAIN_NAME.matcher(database).matches()) {
      throw new IllegalArgumentException(
          "database name must be lower-case letters, digits and _, was '" + database + "'");
    }
    try (Connection c =
        DriverManager.getConnection(admin.jdbcUrl(), admin.user(), admin.password())) {
      try (PreparedStatement exists =
          c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
        exists.setString(1, database);
        try (ResultSet rs = exists.executeQuery()) {
          if (rs.next()) {
            return false;
          }
        }
      }
      try (Statement st = c.createStatement()) {
        st.execute("CREATE DATABASE " + database);
        return true;
      } catch (SQLException e) {
        if (DUPLICATE_DATABASE.equals(e.getSQLState())) { // a concurrent process made it first
          return false;
        }
        throw e;
      }
    }
  }
}
