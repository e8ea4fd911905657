package org.albumstore.common.testing;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Keys;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;

/**
 * The real broker and database that integration tests run against, resolved the way users resolve
 * them: {@code ALBUMSTORE_*} variables, else the local defaults.
 *
 * <p>Isolation: every test gets a queue of its own ({@link #amqp(String)}), so tests never consume
 * each other's messages, and all tests share one database, {@value #TEST_DATABASE}, created on
 * first use, in which they write only album IDs of their own.
 */
public final class TestServices {
  public static final String TEST_DATABASE = "albumstore_it";
  private static DatabaseSettings database;

  private TestServices() {}

  /** Broker settings with a fresh queue name for one test (topology not yet declared). */
  public static AmqpSettings amqp(String testName) {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    return AmqpSettings.from(Env.system())
        .withQueue("it." + testName.replaceAll("[^A-Za-z0-9_.-]", "_") + "." + suffix);
  }

  /**
   * The test database: {@code ALBUMSTORE_JDBC_URL} when set, else {@value #TEST_DATABASE} on the
   * local PostgreSQL, created if missing and with the schema applied.
   */
  public static synchronized DatabaseSettings database() {
    if (database == null) {
      Env env = Env.system();
      DatabaseSettings configured = DatabaseSettings.from(env);
      DatabaseSettings s =
          env.get(Keys.JDBC_URL, null) != null
              ? configured
              : new DatabaseSettings(
                  "jdbc:postgresql://127.0.0.1:5432/" + TEST_DATABASE,
                  configured.user(),
                  configured.password());
      if (env.get(Keys.JDBC_URL, null) == null) {
        createDatabaseIfMissing(s, TEST_DATABASE);
      }
      try (HikariDataSource ds = Databases.pool(s, "it-schema", 1)) {
        Schema.apply(ds);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot apply schema.sql to " + s.jdbcUrl(), e);
      }
      database = s;
    }
    return database;
  }

  private static void createDatabaseIfMissing(DatabaseSettings s, String name) {
    String adminUrl = s.jdbcUrl().replace("/" + name, "/postgres");
    try (var c = DriverManager.getConnection(adminUrl, s.user(), s.password());
        Statement st = c.createStatement()) {
      try (ResultSet rs =
          st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
        if (rs.next()) {
          return;
        }
      }
      st.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      if (!"42P04".equals(e.getSQLState())) { // duplicate_database: another fork made it first
        throw new IllegalStateException("cannot create test database " + name, e);
      }
    }
  }

  /** Declares the topology of {@code s}; returns the settings for chaining. */
  public static AmqpSettings declare(AmqpSettings s) throws Exception {
    try (Connection c = AmqpConnections.open(s, "it-admin");
        Channel ch = c.createChannel()) {
      Topology.declare(ch, s);
    }
    return s;
  }

  /** Deletes the topology of {@code s}; call from {@code @AfterEach}/{@code @AfterAll}. */
  public static void deleteTopology(AmqpSettings s) throws Exception {
    try (Connection c = AmqpConnections.open(s, "it-admin");
        Channel ch = c.createChannel()) {
      Topology.delete(ch, s);
    }
  }

  /** Ready-message count of a queue, read with a passive declare. */
  public static long messageCount(AmqpSettings s, String queue) throws Exception {
    try (Connection c = AmqpConnections.open(s, "it-admin");
        Channel ch = c.createChannel()) {
      return ch.queueDeclarePassive(queue).getMessageCount();
    }
  }

  /** Environment overrides that point a component at {@code amqp} and {@code db}. */
  public static Map<String, String> overrides(AmqpSettings amqp, DatabaseSettings db) {
    return Map.of(
        Keys.AMQP_URI, amqp.uri(),
        Keys.QUEUE, amqp.queue(),
        Keys.QUEUE_TYPE, amqp.queueType().wireName(),
        Keys.JDBC_URL, db.jdbcUrl(),
        Keys.DB_USER, db.user(),
        Keys.DB_PASSWORD, db.password());
  }
}
