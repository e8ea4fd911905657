package org.albumstore.faults.upgrade;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.common.config.DatabaseSettings;

/**
 * A database of the upgrade test's own, on the server of the shared test database, made with N's
 * {@code schema.sql}: the schema as users have it before the upgrade, which the expand step must
 * change under load and N+1's consumers must refuse before it. The shared test database cannot be
 * used: it already has this checkout's schema. Dropped at close, with whatever still holds a
 * connection to it.
 */
final class UpgradeDatabase implements AutoCloseable {
  private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/]+/)([^?]*)(.*)$");

  private final DatabaseSettings admin;
  private final DatabaseSettings settings;
  private final String name;

  private UpgradeDatabase(DatabaseSettings admin, DatabaseSettings settings, String name) {
    this.admin = admin;
    this.settings = settings;
    this.name = name;
  }

  /**
   * Creates {@code albumstore_upgrade_<id>} beside {@code shared}'s database and applies {@code
   * schema} to it.
   */
  static UpgradeDatabase create(DatabaseSettings shared, String id, Path schema) throws Exception {
    String name = "albumstore_upgrade_" + id.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    UpgradeDatabase db =
        new UpgradeDatabase(withDatabase(shared, "postgres"), withDatabase(shared, name), name);
    try (Connection c = db.connect(db.admin);
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    }
    try (Connection c = db.connect(db.settings);
        Statement st = c.createStatement()) {
      st.execute(Files.readString(schema));
    }
    return db;
  }

  private static DatabaseSettings withDatabase(DatabaseSettings s, String database) {
    Matcher m = URL.matcher(s.jdbcUrl());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + s.jdbcUrl());
    }
    return new DatabaseSettings(m.group(1) + database + m.group(3), s.user(), s.password());
  }

  DatabaseSettings settings() {
    return settings;
  }

  /** Opens a connection to this database, for the test's own checks. */
  Connection connect() throws SQLException {
    return connect(settings);
  }

  private Connection connect(DatabaseSettings s) throws SQLException {
    return DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = connect(admin);
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }
}
