package org.albumstore.embedded.testing;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.embedded.Resolved;
import org.albumstore.embedded.ServiceResolver;
import org.albumstore.embedded.Source;
import org.albumstore.embedded.cluster.Engines;
import org.albumstore.embedded.cluster.RabbitNode;
import org.albumstore.embedded.cluster.ReplicatedPostgres;
import org.albumstore.embedded.internal.JdbcUrls;
import org.albumstore.embedded.internal.PostgresAdmin;

/**
 * The broker and database that integration tests run against, resolved the way the runnables
 * resolve them ({@link ServiceResolver}): {@code ALBUMSTORE_*} variables, else the servers on the
 * standard local ports, else embedded ones. So {@code mvn verify} runs every test both on a machine
 * with RabbitMQ and PostgreSQL and on one with neither; nothing is skipped.
 *
 * <p>Embedded servers are started at most once per JVM, on first use, and stopped by a JVM shutdown
 * hook (the test JVM outlives every test class, so no class may stop them). Setting the system
 * property {@value #FORCE_EMBEDDED_PROPERTY}{@code =true} uses the embedded ones even when local
 * servers answer, which is how the no-services machine is reproduced on a developer's.
 *
 * <p>Isolation: every test gets a queue of its own ({@link #amqp(String)}), so tests never consume
 * each other's messages, and all tests share one database, created on first use with the schema
 * applied, in which they write only album IDs of their own. On a local PostgreSQL that database is
 * {@value #TEST_DATABASE}, never the user's {@code albumstore}.
 */
public final class TestServices {
  public static final String TEST_DATABASE = "albumstore_it";
  public static final String FORCE_EMBEDDED_PROPERTY = "albumstore.test.embedded";

  private static final Deque<AutoCloseable> started = new ArrayDeque<>();
  private static ServiceResolver resolver;
  private static Resolved<AmqpSettings> broker;
  private static DatabaseSettings testDatabase;
  private static DatabaseSettings database;
  private static boolean shutdownHookAdded;

  private TestServices() {}

  private static synchronized ServiceResolver resolver() {
    if (resolver == null) {
      requireChosenReleases();
      resolver = new ServiceResolver(Env.system(), Boolean.getBoolean(FORCE_EMBEDDED_PROPERTY));
    }
    return resolver;
  }

  /**
   * A release that {@link Engines} chooses must be there: a test on the chosen engines skips with
   * one line where the root cannot be made (no root, not Linux), and fails on CI.
   */
  private static void requireChosenReleases() {
    Engines engines = Engines.system();
    Env env = Env.system();
    if (!engines.rabbitmq().equals(Engines.INSTALLED)
        && env.get(CommonSettings.AMQP_URI.variable(), null) == null) {
      ExternalTools.system()
          .requireThat(
              RabbitNode.installation().isPresent(),
              "RabbitMQ " + engines.rabbitmq() + " (embedded/engines.sh ensure)",
              "the integration tests on " + engines);
    }
    if (!engines.postgresql().equals(Engines.INSTALLED)
        && env.get(CommonSettings.JDBC_URL.variable(), null) == null) {
      ExternalTools.system()
          .requireThat(
              ReplicatedPostgres.installation().isPresent(),
              "PostgreSQL " + engines.postgresql() + " (embedded/engines.sh ensure)",
              "the integration tests on " + engines);
    }
  }

  /** Broker settings with a fresh queue name for one test (topology not yet declared). */
  public static AmqpSettings amqp(String testName) {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    return broker().withQueue("it." + testName.replaceAll("[^A-Za-z0-9_.-]", "_") + "." + suffix);
  }

  private static synchronized AmqpSettings broker() {
    if (broker == null) {
      broker = resolver().resolveBroker();
      stopAtExit(broker);
    }
    return broker.settings();
  }

  /**
   * The test database, created if missing and with the schema applied: {@code ALBUMSTORE_JDBC_URL}
   * when set, else {@value #TEST_DATABASE} on the local PostgreSQL, else the embedded PostgreSQL's
   * database.
   */
  public static synchronized DatabaseSettings database() {
    if (database == null) {
      DatabaseSettings s = testDatabase();
      try (HikariDataSource ds = Databases.pool(s, "it-schema", 1)) {
        Schema.apply(ds);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot apply schema.sql to " + s.jdbcUrl(), e);
      }
      database = s;
    }
    return database;
  }

  /** Resolved once: a failure after this point must not start a second embedded server. */
  private static synchronized DatabaseSettings testDatabase() {
    if (testDatabase == null) {
      if (resolver().databaseSource() == Source.LOCAL) {
        // Not resolveDatabase(): that would create the user's default database as a side effect.
        DatabaseSettings local = DatabaseSettings.from(Env.system());
        DatabaseSettings s =
            new DatabaseSettings(
                JdbcUrls.withDatabase(local.jdbcUrl(), TEST_DATABASE),
                local.user(),
                local.password());
        createIfMissing(s);
        testDatabase = s;
      } else {
        Resolved<DatabaseSettings> resolved = resolver().resolveDatabase();
        stopAtExit(resolved);
        testDatabase = resolved.settings();
      }
    }
    return testDatabase;
  }

  private static void createIfMissing(DatabaseSettings s) {
    DatabaseSettings admin =
        new DatabaseSettings(
            JdbcUrls.withDatabase(s.jdbcUrl(), "postgres"), s.user(), s.password());
    try {
      PostgresAdmin.createDatabaseIfMissing(admin, TEST_DATABASE);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create test database " + TEST_DATABASE, e);
    }
  }

  /** Remembers a resolved part; embedded ones are stopped, newest first, when the JVM exits. */
  private static synchronized void stopAtExit(Resolved<?> part) {
    if (part.source() != Source.EMBEDDED) {
      return;
    }
    started.push(part);
    if (!shutdownHookAdded) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(TestServices::stopAll, "test-services-shutdown"));
      shutdownHookAdded = true;
    }
  }

  private static void stopAll() {
    AutoCloseable next;
    while ((next = pollStarted()) != null) {
      try {
        next.close();
      } catch (Exception e) {
        // The JVM is exiting: reporting is all that is left to do.
        System.err.println("stopping " + next + " failed: " + e);
      }
    }
  }

  private static synchronized AutoCloseable pollStarted() {
    return started.poll();
  }

  /** Declares the topology of {@code s}; returns the settings for chaining. */
  public static AmqpSettings declare(AmqpSettings s) throws Exception {
    try (Connection c = AmqpConnections.open(s, "it-admin");
        Channel ch = c.createChannel()) {
      Topology.declare(ch, s);
    }
    return s;
  }

  /**
   * Deletes the topology of {@code s}, whatever part of it exists; call from
   * {@code @AfterEach}/{@code @AfterAll}.
   *
   * <p>Each deletion gets a channel of its own: RabbitMQ deletes an absent queue or exchange
   * silently, but Qpid answers with a 404 that closes the channel, and a test that failed before
   * declaring everything must still have the rest cleaned up.
   */
  public static void deleteTopology(AmqpSettings s) throws Exception {
    try (Connection c = AmqpConnections.open(s, "it-admin")) {
      for (AmqpSettings.Partition p : s.partitionList()) {
        deleteIfPresent(c, ch -> ch.queueDelete(p.queue()));
        deleteIfPresent(c, ch -> ch.queueDelete(p.deadLetterQueue()));
        deleteIfPresent(c, ch -> ch.exchangeDelete(p.exchange()));
        deleteIfPresent(c, ch -> ch.exchangeDelete(p.deadLetterExchange()));
      }
      deleteIfPresent(c, ch -> ch.exchangeDelete(s.commitsExchange()));
    }
  }

  private interface Deletion {
    void run(Channel ch) throws IOException;
  }

  private static void deleteIfPresent(Connection c, Deletion deletion) throws Exception {
    Channel ch = c.createChannel();
    try {
      deletion.run(ch);
    } catch (IOException e) {
      if (e.getCause() instanceof ShutdownSignalException signal
          && signal.getReason() instanceof AMQP.Channel.Close close
          && close.getReplyCode() == AMQP.NOT_FOUND) {
        return; // already absent, which is what was asked for; the broker closed the channel
      }
      throw e;
    }
    ch.close();
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
        CommonSettings.AMQP_URI.variable(), amqp.uri(),
        CommonSettings.QUEUE.variable(), amqp.queue(),
        CommonSettings.QUEUE_PARTITIONS.variable(), Integer.toString(amqp.partitions()),
        CommonSettings.QUEUE_TYPE.variable(), amqp.queueType().wireName(),
        CommonSettings.JDBC_URL.variable(), db.jdbcUrl(),
        CommonSettings.DB_USER.variable(), db.user(),
        CommonSettings.DB_PASSWORD.variable(), db.password());
  }
}
