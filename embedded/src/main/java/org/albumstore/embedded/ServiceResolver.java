package org.albumstore.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.cluster.Engines;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.albumstore.embedded.cluster.RabbitNode;
import org.albumstore.embedded.cluster.ReplicatedPostgres;
import org.albumstore.embedded.internal.Endpoint;
import org.albumstore.embedded.internal.JdbcUrls;
import org.albumstore.embedded.internal.PortProbe;
import org.albumstore.embedded.internal.PostgresAdmin;
import org.albumstore.embedded.service.EmbeddedBroker;
import org.albumstore.embedded.service.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides where the broker and the database come from, each on its own, in this order:
 *
 * <ol>
 *   <li>{@link Source#CONFIGURED}: the variable ({@code ALBUMSTORE_AMQP_URI}, {@code
 *       ALBUMSTORE_JDBC_URL}) is set. Its address must answer; if it does not, that is an error
 *       naming the variable and the address, never a silent fallback to something else (a typo
 *       would otherwise send production traffic to a throw-away broker).
 *   <li>{@link Source#LOCAL}: nothing configured and a server answers on the standard loopback port
 *       (5672, 5432). For PostgreSQL the database of the default URL is created if missing.
 *   <li>{@link Source#EMBEDDED}: otherwise, started on demand (Qpid Broker-J in this JVM,
 *       PostgreSQL from Maven Central binaries as a child process).
 * </ol>
 *
 * <p>When {@link Engines} chooses a release that is not the installed one ({@code
 * ALBUMSTORE_RABBITMQ=4.0}, {@code ALBUMSTORE_POSTGRESQL=17}), nothing configured means a server of
 * that release, started here ({@link Source#EMBEDDED}): a one-node {@link RabbitCluster}, a {@link
 * ReplicatedPostgres} without standby. Neither the local servers nor the embedded ones stand in for
 * it, and a root that is not made is an error naming the script that makes it.
 *
 * <p>{@code forceEmbedded} skips step 2 (the {@code --embedded} flag): an isolated run even on a
 * machine whose local servers answer. A configured variable still wins, so that what the user wrote
 * down is never ignored; the report line shows which one was used.
 *
 * <p>"Answers" means a TCP connect succeeds ({@link PortProbe}); the probe is injectable so that
 * the decision can be tested without servers.
 */
public final class ServiceResolver {
  private static final Logger log = LoggerFactory.getLogger(ServiceResolver.class);

  public static final Endpoint LOCAL_BROKER =
      Endpoint.ofAmqpUri(CommonSettings.AMQP_URI.defaultValue());
  public static final Endpoint LOCAL_DATABASE =
      Endpoint.ofJdbcUrl(CommonSettings.JDBC_URL.defaultValue());

  /** Loopback refusals are immediate; this bounds the wait for a remote, firewalled address. */
  public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  private final Env env;
  private final boolean forceEmbedded;
  private final PortProbe probe;
  private final Engines engines;

  public ServiceResolver(Env env, boolean forceEmbedded) {
    this(env, forceEmbedded, PortProbe.tcp(PROBE_TIMEOUT));
  }

  public ServiceResolver(Env env, boolean forceEmbedded, PortProbe probe) {
    this.env = env;
    this.forceEmbedded = forceEmbedded;
    this.probe = probe;
    this.engines = Engines.of(engineVariables(env));
  }

  private static Map<String, String> engineVariables(Env env) {
    Map<String, String> vars = new java.util.HashMap<>();
    for (String name :
        new String[] {
          Engines.RABBITMQ_VARIABLE,
          Engines.POSTGRESQL_VARIABLE,
          Engines.DIR_VARIABLE,
          "HOME",
          "XDG_CACHE_HOME"
        }) {
      String value = env.get(name, null);
      if (value != null) {
        vars.put(name, value);
      }
    }
    return vars;
  }

  /**
   * Where the broker will come from; starts nothing.
   *
   * @throws IllegalStateException if {@code ALBUMSTORE_AMQP_URI} is set and does not answer
   */
  public Source brokerSource() {
    return decide(
        CommonSettings.AMQP_URI.variable(),
        !engines.rabbitmq().equals(Engines.INSTALLED),
        "broker",
        Endpoint::ofAmqpUri,
        ServiceResolver::redactAmqpUri,
        LOCAL_BROKER);
  }

  /**
   * Where the database will come from; starts nothing.
   *
   * @throws IllegalStateException if {@code ALBUMSTORE_JDBC_URL} is set and does not answer
   */
  public Source databaseSource() {
    return decide(
        CommonSettings.JDBC_URL.variable(),
        !engines.postgresql().equals(Engines.INSTALLED),
        "database",
        Endpoint::ofJdbcUrl,
        JdbcUrls::redact,
        LOCAL_DATABASE);
  }

  private Source decide(
      String key,
      boolean releaseChosen,
      String what,
      Function<String, Endpoint> endpointOf,
      Function<String, String> redact,
      Endpoint local) {
    String configured = env.get(key, null);
    if (configured != null) {
      Endpoint endpoint;
      try {
        endpoint = endpointOf.apply(configured);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            key + " is not a valid address: '" + redact.apply(configured) + "': " + e.getMessage(),
            e);
      }
      if (probe.answers(endpoint)) {
        return Source.CONFIGURED;
      }
      throw new IllegalStateException(
          String.format(
              "%s is set to %s but nothing answers at %s (TCP connect failed or took over %d s)."
                  + " Start that %s, correct %s, or unset it to use a local or an embedded %s.",
              key, redact.apply(configured), endpoint, PROBE_TIMEOUT.toSeconds(), what, key, what));
    }
    if (forceEmbedded || releaseChosen) {
      return Source.EMBEDDED;
    }
    return probe.answers(local) ? Source.LOCAL : Source.EMBEDDED;
  }

  /** Resolves the broker, starting an embedded one if that is where it comes from. */
  public Resolved<AmqpSettings> resolveBroker() {
    Source source = brokerSource();
    AmqpSettings base = AmqpSettings.from(env); // queue name and type apply to every source
    Resolved<AmqpSettings> resolved =
        switch (source) {
          case CONFIGURED ->
              new Resolved<>(
                  base,
                  source,
                  "broker: configured "
                      + CommonSettings.AMQP_URI.variable()
                      + " "
                      + base.redactedUri(),
                  null);
          case LOCAL ->
              new Resolved<>(base, source, "broker: local RabbitMQ at " + LOCAL_BROKER, null);
          case EMBEDDED -> {
            if (!engines.rabbitmq().equals(Engines.INSTALLED)) {
              yield releaseBroker(base);
            }
            EmbeddedBroker broker = EmbeddedBroker.start();
            yield new Resolved<>(
                broker.settings(base),
                source,
                "broker: embedded Qpid Broker-J " + broker.version() + " on port " + broker.port(),
                broker);
          }
        };
    log.info("{}", resolved.description());
    return resolved;
  }

  /** Resolves the database, starting an embedded one if that is where it comes from. */
  public Resolved<DatabaseSettings> resolveDatabase() {
    Source source = databaseSource();
    DatabaseSettings base = DatabaseSettings.from(env);
    Resolved<DatabaseSettings> resolved =
        switch (source) {
          case CONFIGURED ->
              new Resolved<>(
                  base,
                  source,
                  "database: configured "
                      + CommonSettings.JDBC_URL.variable()
                      + " "
                      + JdbcUrls.redact(base.jdbcUrl())
                      + " as "
                      + base.user(),
                  null);
          case LOCAL -> {
            String database = JdbcUrls.database(base.jdbcUrl());
            createLocalDatabaseIfMissing(base, database);
            yield new Resolved<>(
                base,
                source,
                "database: local PostgreSQL at " + LOCAL_DATABASE + ", database " + database,
                null);
          }
          case EMBEDDED -> {
            if (!engines.postgresql().equals(Engines.INSTALLED)) {
              yield releaseDatabase();
            }
            EmbeddedPostgres postgres = EmbeddedPostgres.start();
            yield new Resolved<>(
                postgres.settings(),
                source,
                "database: embedded PostgreSQL "
                    + postgres.version()
                    + " on port "
                    + postgres.port()
                    + ", database "
                    + EmbeddedPostgres.DATABASE,
                postgres);
          }
        };
    log.info("{}", resolved.description());
    return resolved;
  }

  /**
   * Resolves both, broker first. If the database cannot be had, the broker started for this call is
   * stopped again before the error is thrown.
   */
  public ResolvedServices resolve() {
    Resolved<AmqpSettings> broker = resolveBroker();
    try {
      return new ResolvedServices(broker, resolveDatabase());
    } catch (RuntimeException e) {
      try {
        broker.close();
      } catch (Exception closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
  }

  /** A one-node cluster of the chosen RabbitMQ release, with its management API. */
  private Resolved<AmqpSettings> releaseBroker(AmqpSettings base) {
    String release = "RabbitMQ " + engines.rabbitmq();
    if (RabbitNode.installation().isEmpty()) {
      throw notMade(Engines.RABBITMQ_VARIABLE, engines.rabbitmq());
    }
    String name = "albumstore-" + UUID.randomUUID().toString().substring(0, 8);
    try {
      Path dir = Files.createTempDirectory("albumstore-rabbitmq-");
      RabbitCluster node = RabbitCluster.start(name, 1, dir, true);
      AmqpSettings s =
          new AmqpSettings(
              node.uri(0),
              "",
              base.queue(),
              base.queueType(),
              base.quorumGroupSize(),
              base.partitions());
      String description =
          "broker: "
              + release
              + " (Debian 13 root) on port "
              + node.amqpPort(0)
              + ", management API "
              + node.managementApi().orElse("none");
      return new Resolved<>(s, Source.EMBEDDED, description, node);
    } catch (IOException e) {
      throw new IllegalStateException(release + " did not start: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(release + " did not start: interrupted", e);
    }
  }

  /** A primary of the chosen PostgreSQL release, alone, with database {@code albumstore}. */
  private Resolved<DatabaseSettings> releaseDatabase() {
    String release = "PostgreSQL " + engines.postgresql();
    if (ReplicatedPostgres.installation().isEmpty()) {
      throw notMade(Engines.POSTGRESQL_VARIABLE, engines.postgresql());
    }
    try {
      ReplicatedPostgres pg = ReplicatedPostgres.start(ReplicatedPostgres.Replication.NONE);
      int port = pg.ports().get(pg.primary());
      DatabaseSettings s = ReplicatedPostgres.settings(port, ReplicatedPostgres.DATABASE);
      String description =
          "database: "
              + release
              + " (Debian 13 root) on port "
              + port
              + ", database "
              + ReplicatedPostgres.DATABASE;
      return new Resolved<>(s, Source.EMBEDDED, description, pg);
    } catch (Exception e) {
      throw new IllegalStateException(release + " did not start: " + e.getMessage(), e);
    }
  }

  private static IllegalStateException notMade(String variable, String release) {
    return new IllegalStateException(
        variable
            + "="
            + release
            + " chooses a release from the Debian 13 root, which is not made here: run"
            + " embedded/engines.sh ensure (as root, on Linux)");
  }

  /** The URI with its password masked (as {@code AmqpSettings.redactedUri()}, usable unparsed). */
  static String redactAmqpUri(String uri) {
    return uri.replaceFirst("://([^:/@]*):[^@/]*@", "://$1:***@");
  }

  /**
   * Creates the default URL's database on the local server, from its {@code postgres} database, so
   * that a fresh local install needs no manual step.
   */
  static void createLocalDatabaseIfMissing(DatabaseSettings s, String database) {
    DatabaseSettings admin =
        new DatabaseSettings(
            JdbcUrls.withDatabase(s.jdbcUrl(), "postgres"), s.user(), s.password());
    try {
      if (PostgresAdmin.createDatabaseIfMissing(admin, database)) {
        log.info("created database {} on the local PostgreSQL", database);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "a PostgreSQL answers at "
              + Endpoint.ofJdbcUrl(s.jdbcUrl())
              + " but database "
              + database
              + " cannot be checked or created as user "
              + s.user()
              + " (set "
              + CommonSettings.DB_USER.variable()
              + "/"
              + CommonSettings.DB_PASSWORD.variable()
              + ", or "
              + CommonSettings.JDBC_URL.variable()
              + "): "
              + e.getMessage(),
          e);
    }
  }
}
