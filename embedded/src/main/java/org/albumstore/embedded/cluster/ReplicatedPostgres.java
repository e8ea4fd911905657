package org.albumstore.embedded.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.internal.PostgresAdmin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL primary and one streaming standby, as RDS Multi-AZ runs them, from the machine's
 * installed PostgreSQL ({@code initdb}, {@code pg_ctl}, {@code pg_basebackup}): the standby is a
 * {@code pg_basebackup -R} of the primary, streaming its WAL. Both listen on loopback ports of
 * their own and keep their data in a directory of their own; {@link #close()} stops both and
 * deletes it.
 *
 * <p>The standby runs with {@code hot_standby=off}: it refuses connections until it is promoted, so
 * that a client routed to it too early gets an error, never a read-only session it might take for
 * the primary. {@link Replication#SYNCHRONOUS} is what RDS Multi-AZ gives (a commit returns once
 * the standby has it); {@link Replication#ASYNCHRONOUS} is a plain streaming replica, whose
 * failover loses the commits it had not received yet.
 *
 * <p>PostgreSQL refuses to run as root: as root, every command runs as the {@code postgres} user
 * the package created ({@code runuser}), and the data directory is theirs. The release is the one
 * {@link Engines} chooses: the installed one, or the Debian 13 root's, whose wrappers switch to
 * that user themselves (the root's {@code postgres} user has the host's IDs).
 *
 * <p>{@link Replication#NONE} is a primary alone: the database the single-node tests use when
 * {@link Engines} chooses a release that is not installed.
 */
public final class ReplicatedPostgres implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReplicatedPostgres.class);

  /** The database created on the primary before the standby is made, so on both. */
  public static final String DATABASE = "albumstore";

  private static final String USER = "postgres";
  private static final List<String> TOOLS =
      List.of("initdb", "pg_ctl", "pg_basebackup", "postgres");
  private static final Duration COMMAND_LIMIT = Duration.ofSeconds(60);
  private static final Duration STREAMING_LIMIT = Duration.ofSeconds(30);

  /** How a commit on the primary relates to the standby. */
  public enum Replication {
    /** {@code synchronous_standby_names='*'}: a commit returns once the standby has flushed it. */
    SYNCHRONOUS,
    /** A commit returns once the primary has it; the standby follows as fast as it can. */
    ASYNCHRONOUS,
    /** No standby: a primary alone. */
    NONE
  }

  private final Path bin;
  private final boolean switchesUser;
  private final Path dir;
  private final Replication replication;
  private final List<Integer> ports;
  private volatile int primary = 0;
  private volatile boolean standbyRunning;

  private ReplicatedPostgres(Path bin, Path dir, Replication replication, List<Integer> ports) {
    this.bin = bin;
    this.switchesUser = Engines.system().postgresqlFromRoot();
    this.dir = dir;
    this.replication = replication;
    this.ports = List.copyOf(ports);
  }

  /**
   * The directory of PostgreSQL's server programs: the root's when {@link Engines} chooses a
   * release from it, else the first on the {@code PATH} that has them all, else the newest {@code
   * /usr/lib/postgresql/N/bin} (Debian's place).
   */
  public static Optional<Path> installation() {
    Engines engines = Engines.system();
    if (engines.postgresqlFromRoot()) {
      return engines.postgresqlTools().filter(b -> runningAsRoot());
    }
    List<Path> candidates = new ArrayList<>();
    for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!p.isBlank()) {
        candidates.add(Path.of(p));
      }
    }
    candidates.addAll(debianInstallations());
    Optional<Path> found = candidates.stream().filter(ReplicatedPostgres::hasTools).findFirst();
    return found.filter(b -> !runningAsRoot() || Files.isExecutable(Path.of("/usr/sbin/runuser")));
  }

  private static List<Path> debianInstallations() {
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> versions = Files.list(root)) {
      return versions
          .filter(v -> v.getFileName().toString().matches("\\d+"))
          .sorted(
              Comparator.comparingInt((Path v) -> Integer.parseInt(v.getFileName().toString()))
                  .reversed())
          .map(v -> v.resolve("bin"))
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private static boolean hasTools(Path bin) {
    return TOOLS.stream().allMatch(t -> Files.isExecutable(bin.resolve(t)));
  }

  private static boolean runningAsRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /**
   * Creates the primary (with database {@value #DATABASE}) and the standby, starts both, and
   * returns once the standby streams ({@code sync} for {@link Replication#SYNCHRONOUS}).
   *
   * @throws IllegalStateException when PostgreSQL is not installed, or a step fails (its output in
   *     the message)
   */
  public static ReplicatedPostgres start(Replication replication) throws Exception {
    Path bin =
        installation()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup) are not"
                            + " installed; install them (Debian/Ubuntu: apt-get install"
                            + " postgresql)"));
    Path dir = Files.createTempDirectory("albumstore-replicated-pg-");
    ReplicatedPostgres pg =
        new ReplicatedPostgres(
            bin, dir, replication, List.of(RabbitNode.freePort(), RabbitNode.freePort()));
    try {
      pg.create();
    } catch (Exception e) {
      pg.close();
      throw e;
    }
    String standby =
        replication == Replication.NONE
            ? "no standby"
            : replication.name().toLowerCase(Locale.ROOT)
                + " standby on 127.0.0.1:"
                + pg.ports.get(1);
    log.info(
        "PostgreSQL ({}) primary on 127.0.0.1:{}, {} ({})", bin, pg.ports.get(0), standby, dir);
    return pg;
  }

  private void create() throws Exception {
    if (runningAsRoot()) {
      run(List.of("chown", USER, dir.toString()), false);
    }
    run(
        tool(
            "initdb",
            "-D",
            data(0).toString(),
            "-U",
            USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync"),
        true);
    Files.writeString(data(0).resolve("pg_hba.conf"), hba());
    append(data(0).resolve("postgresql.conf"), primaryConfig(ports.get(0)));
    pgCtl("start", data(0), "-l", logFile(0).toString());
    PostgresAdmin.createDatabaseIfMissing(admin(ports.get(0)), DATABASE);
    if (replication != Replication.NONE) {
      startStandby();
    }
  }

  /**
   * The slot that is not the primary becomes a {@code pg_basebackup -R} of it, started, streaming
   * (in sync when it must be).
   */
  private void startStandby() throws Exception {
    int standby = 1 - primary;
    run(
        tool(
            "pg_basebackup",
            "-h",
            "127.0.0.1",
            "-p",
            Integer.toString(ports.get(primary)),
            "-U",
            USER,
            "-D",
            data(standby).toString(),
            "-R",
            "-X",
            "stream",
            "--checkpoint=fast"),
        true);
    // Its own port; and once promoted it has no standby of its own: its commits must not wait for
    // one (as RDS after a failover, until it has built a new one).
    append(
        data(standby).resolve("postgresql.conf"),
        "port = " + ports.get(standby) + "\nsynchronous_standby_names = ''\n");
    pgCtl("start", data(standby), "-l", logFile(standby).toString());
    standbyRunning = true;
    if (replication == Replication.SYNCHRONOUS) {
      // Only now: until the standby streams, every commit (CREATE DATABASE too) would wait for it.
      append(data(primary).resolve("postgresql.conf"), "synchronous_standby_names = '*'\n");
      pgCtl("reload", data(primary));
    }
    awaitStreaming();
  }

  private static String hba() {
    return "host all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n";
  }

  private static String primaryConfig(int port) {
    return String.join(
        "\n",
        "listen_addresses = '127.0.0.1'",
        "port = " + port,
        "unix_socket_directories = ''",
        "wal_level = replica",
        "max_wal_senders = 4",
        "hot_standby = off",
        "fsync = on",
        "synchronous_commit = on",
        "synchronous_standby_names = ''",
        "max_connections = 200",
        "");
  }

  /** Waits until the primary sees the standby streaming, in sync when it must be. */
  private void awaitStreaming() throws Exception {
    String wanted = replication == Replication.SYNCHRONOUS ? "sync" : "async";
    long deadline = System.nanoTime() + STREAMING_LIMIT.toNanos();
    String seen = "";
    while (!seen.equals("streaming " + wanted)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the standby is not streaming ("
                + wanted
                + ") within "
                + STREAMING_LIMIT
                + ", seen '"
                + seen
                + "'"
                + tail(logFile(1 - primary)));
      }
      Thread.sleep(100);
      seen =
          query(ports.get(primary), "SELECT state || ' ' || sync_state FROM pg_stat_replication");
    }
  }

  /** The two slots' ports, where clients reach database {@value #DATABASE}. */
  public List<Integer> ports() {
    return ports;
  }

  /** The slot of the primary: 0 at the start, the promoted one after a failover. */
  public int primary() {
    return primary;
  }

  /** Settings for database {@value #DATABASE} at {@code host:port} (e.g. a balancer). */
  public static DatabaseSettings settings(int port, String database) {
    return new DatabaseSettings("jdbc:postgresql://127.0.0.1:" + port + "/" + database, USER, "");
  }

  /** This fixture's own sessions: bounded, so that a commit stuck waiting fails instead. */
  private static DatabaseSettings admin(int port) {
    DatabaseSettings s = settings(port, "postgres");
    return new DatabaseSettings(
        s.jdbcUrl() + "?connectTimeout=10&socketTimeout=60", s.user(), s.password());
  }

  /**
   * The primary's host fails: {@code pg_ctl stop -m immediate}, its processes quit at once with no
   * checkpoint and no goodbye to the standby or the clients, as on a power loss (what it had
   * committed is in its WAL, but nobody reads that WAL again).
   */
  public void crashPrimary() throws Exception {
    pgCtl("stop", data(primary), "-m", "immediate");
  }

  /**
   * {@code pg_ctl promote}: the standby ends recovery and takes writes, and is the primary from now
   * on; returns once it takes writes.
   *
   * <p>{@code pg_ctl promote -w} would return when the control file says "in production", which is
   * before the postmaster accepts connections: under a write load the end of recovery takes long
   * enough that a query sent at once is refused ("the database system is not accepting
   * connections"). So the promotion is only signalled ({@code -W}), and the one wait is for the
   * real signal: a session that answers {@code pg_is_in_recovery() = f}, polled within a bound.
   * Every promotion thus meets a server that still refuses sessions, and a harness that trusted the
   * command instead fails every time, not once in a while.
   */
  public void promoteStandby() throws Exception {
    int standby = 1 - primary;
    run(tool("pg_ctl", "promote", "-D", data(standby).toString(), "-W"), true);
    awaitTakesWrites(standby);
    primary = standby;
    standbyRunning = false;
  }

  /** Polls {@code slot} until a session there says it is out of recovery, within the limit. */
  private void awaitTakesWrites(int slot) throws Exception {
    long deadline = System.nanoTime() + COMMAND_LIMIT.toNanos();
    String seen;
    while (true) {
      try {
        seen = query(ports.get(slot), "SELECT pg_is_in_recovery()");
      } catch (SQLException e) {
        if (!startingUp(e)) {
          throw e;
        }
        seen = e.getMessage();
      }
      if (seen.equals("f")) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the promoted standby takes no writes within "
                + COMMAND_LIMIT
                + ", last seen '"
                + seen
                + "'"
                + tail(logFile(slot)));
      }
      Thread.sleep(20);
    }
  }

  /**
   * A server that is up but not yet taking sessions: {@code 57P03} (cannot connect now) or a
   * connection refused while the postmaster moves from recovery to production.
   */
  private static boolean startingUp(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.equals("57P03") || state.startsWith("08"));
  }

  /**
   * After a failover: the crashed slot's data is thrown away and the slot becomes a new standby of
   * the promoted primary, streaming (in sync when it must be). Does nothing while a standby runs,
   * so that it can be repeated.
   */
  public synchronized void rebuildStandby() throws Exception {
    if (standbyRunning) {
      return;
    }
    Path old = data(1 - primary);
    if (Files.exists(old.resolve("postmaster.pid"))) {
      pgCtl("stop", old, "-m", "immediate"); // a crashed primary must never come back as one
    }
    deleteTree(old);
    startStandby();
  }

  /** Returns once the standby has flushed all the WAL the primary has written so far. */
  public void awaitStandbyCaughtUp() throws Exception {
    String sql = "SELECT count(*) FROM pg_stat_replication WHERE flush_lsn >= pg_current_wal_lsn()";
    long deadline = System.nanoTime() + STREAMING_LIMIT.toNanos();
    while (!query(ports.get(primary), sql).equals("1")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the standby did not catch up within " + STREAMING_LIMIT);
      }
      Thread.sleep(50);
    }
  }

  /**
   * The standby stops receiving WAL, as when the network between the two fails: its {@code
   * primary_conninfo} is emptied and reloaded, and this returns once the primary sees no standby.
   * For {@link Replication#ASYNCHRONOUS} only: a synchronous primary would stop committing.
   */
  public void stopReplication() throws Exception {
    if (replication != Replication.ASYNCHRONOUS) {
      throw new IllegalStateException("a synchronous primary waits for its standby: no commits");
    }
    Path standby = data(1 - primary);
    append(standby.resolve("postgresql.auto.conf"), "primary_conninfo = ''\n");
    pgCtl("reload", standby);
    long deadline = System.nanoTime() + STREAMING_LIMIT.toNanos();
    while (!query(ports.get(primary), "SELECT count(*) FROM pg_stat_replication").equals("0")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the standby still streams " + STREAMING_LIMIT + " on");
      }
      Thread.sleep(100);
    }
  }

  /** Stops what still runs ({@code -m immediate}: nothing here is kept) and deletes the data. */
  @Override
  public void close() throws Exception {
    for (int slot : List.of(1 - primary, primary)) {
      if (Files.exists(data(slot).resolve("postmaster.pid"))) {
        try {
          pgCtl("stop", data(slot), "-m", "immediate");
        } catch (IllegalStateException e) {
          log.warn("could not stop the PostgreSQL in {}: {}", data(slot), e.getMessage());
        }
      }
    }
    deleteTree(dir);
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private Path data(int slot) {
    return dir.resolve("postgres-" + (slot + 1));
  }

  /** Outside the data directory, so that a rebuilt slot keeps its history. */
  private Path logFile(int slot) {
    return dir.resolve("postgres-" + (slot + 1) + ".log");
  }

  private void pgCtl(String action, Path data, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of(action, "-D", data.toString(), "-w", "-t", "60"));
    args.addAll(List.of(more));
    run(tool("pg_ctl", args.toArray(String[]::new)), true);
  }

  private List<String> tool(String name, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(bin.resolve(name).toString());
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** Appends {@code text} as the PostgreSQL user would (the file is theirs). */
  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }

  /** Runs {@code cmd} ({@code asPostgres}: as that user when this is root); fails on non-zero. */
  private void run(List<String> cmd, boolean asPostgres) throws Exception {
    List<String> full = new ArrayList<>();
    if (asPostgres && runningAsRoot() && !switchesUser) {
      full.addAll(List.of("/usr/sbin/runuser", "-u", USER, "--"));
    }
    full.addAll(cmd);
    Path out = Files.createTempFile("albumstore-pg-command-", ".out");
    try {
      Process p =
          new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (!p.waitFor(COMMAND_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new IllegalStateException(String.join(" ", cmd) + " took over " + COMMAND_LIMIT);
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", cmd)
                + " failed (exit "
                + p.exitValue()
                + "): "
                + Files.readString(out).strip()
                + tail(logFile(0))
                + tail(logFile(1)));
      }
    } finally {
      Files.deleteIfExists(out);
    }
  }

  private static String query(int port, String sql) throws SQLException {
    DatabaseSettings s = admin(port);
    try (Connection c = DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : "";
    }
  }

  private static String tail(Path file) {
    try {
      if (!Files.exists(file)) {
        return "";
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return "\n"
          + file.getFileName()
          + ":\n  "
          + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "";
    }
  }
}
