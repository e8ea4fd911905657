package org.albumstore.embedded.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which engine releases the nodes this module starts run: the installed ones (the default), or
 * today's from the Debian 13 root that {@code embedded/engines.sh ensure} makes. One choice per
 * engine, read from the environment, honoured by {@link RabbitNode} (so by {@link RabbitCluster}
 * and every stack built on it), by {@link ReplicatedPostgres}, and by the tests' services:
 *
 * <ul>
 *   <li>{@value #RABBITMQ_VARIABLE}: {@code installed} (default) or {@code 4.0} (RabbitMQ 4.0.5 on
 *       Erlang 27; Amazon MQ's 4.2 is packaged nowhere this project reaches, and 4.0 is the
 *       nearest);
 *   <li>{@value #POSTGRESQL_VARIABLE}: {@code installed} (default) or {@code 17} (RDS's current
 *       default major);
 *   <li>{@value #DIR_VARIABLE}: where the root and its wrappers are (default {@code
 *       ${XDG_CACHE_HOME:-$HOME/.cache}/albumstore/engines}, as the script's).
 * </ul>
 *
 * <p>The choice is the JVM's default: one cluster may run another RabbitMQ ({@link #withRabbitmq},
 * {@link RabbitCluster#start(String, int, java.nio.file.Path, String)}), as a broker blue/green
 * runs the old release and the new side by side.
 *
 * <p>A chosen engine whose root is missing is absent, exactly as an engine that is not installed:
 * the tests that need it skip with one line, or fail with {@code CI=true}; nothing falls back to
 * another release.
 */
public final class Engines {
  public static final String RABBITMQ_VARIABLE = "ALBUMSTORE_RABBITMQ";
  public static final String POSTGRESQL_VARIABLE = "ALBUMSTORE_POSTGRESQL";
  public static final String DIR_VARIABLE = "ALBUMSTORE_ENGINES";

  /** The value of either choice that means the machine's own installation. */
  public static final String INSTALLED = "installed";

  private static final List<String> RABBITMQ_CHOICES = List.of(INSTALLED, "4.0");
  private static final List<String> POSTGRESQL_CHOICES = List.of(INSTALLED, "17");
  private static final Logger log = LoggerFactory.getLogger(Engines.class);

  private final String rabbitmq;
  private final String postgresql;
  private final Path dir;

  private Engines(String rabbitmq, String postgresql, Path dir) {
    this.rabbitmq = rabbitmq;
    this.postgresql = postgresql;
    this.dir = dir;
  }

  /** The choices of this JVM's environment. */
  public static Engines system() {
    return of(System.getenv());
  }

  /**
   * The choices {@code env} makes.
   *
   * @throws IllegalArgumentException for a value that names no release offered here
   */
  public static Engines of(Map<String, String> env) {
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    String cache = env.getOrDefault("XDG_CACHE_HOME", "");
    Path defaultDir =
        (cache.isBlank() ? Path.of(home, ".cache") : Path.of(cache)).resolve("albumstore/engines");
    String dir = env.getOrDefault(DIR_VARIABLE, "");
    return new Engines(
        choice(env, RABBITMQ_VARIABLE, RABBITMQ_CHOICES),
        choice(env, POSTGRESQL_VARIABLE, POSTGRESQL_CHOICES),
        dir.isBlank() ? defaultDir : Path.of(dir));
  }

  private static String choice(Map<String, String> env, String variable, List<String> choices) {
    String value = env.getOrDefault(variable, "").strip().toLowerCase(Locale.ROOT);
    if (value.isEmpty()) {
      return INSTALLED;
    }
    if (!choices.contains(value)) {
      throw new IllegalArgumentException(
          variable + "=" + value + " names no release offered here; one of " + choices);
    }
    return value;
  }

  /**
   * These choices with RabbitMQ's replaced by {@code release}: for a cluster that runs another
   * release than the rest of the JVM's nodes (a broker blue/green moves from one to the other).
   *
   * @throws IllegalArgumentException for a release not offered here
   */
  public Engines withRabbitmq(String release) {
    return new Engines(
        choice(Map.of(RABBITMQ_VARIABLE, release), RABBITMQ_VARIABLE, RABBITMQ_CHOICES),
        postgresql,
        dir);
  }

  /** The RabbitMQ release chosen: {@value #INSTALLED} or a version. */
  public String rabbitmq() {
    return rabbitmq;
  }

  /** The PostgreSQL release chosen: {@value #INSTALLED} or a major version. */
  public String postgresql() {
    return postgresql;
  }

  /** Where the root and its wrappers are, or will be. */
  Path dir() {
    return dir;
  }

  /** True when either engine comes from the root rather than from this machine's installation. */
  public boolean fromRoot() {
    return !rabbitmq.equals(INSTALLED) || !postgresql.equals(INSTALLED);
  }

  /**
   * The folder of the root's wrappers for the chosen RabbitMQ's {@code rabbitmq-server}, {@code
   * rabbitmqctl}, ...: empty (with a log line) while the root is not made. Asked only when {@link
   * #rabbitmqFromRoot()}.
   */
  Optional<Path> rabbitmqTools() {
    return tools("rabbitmq-" + rabbitmq + "/sbin", "rabbitmqctl", RABBITMQ_VARIABLE, rabbitmq);
  }

  boolean rabbitmqFromRoot() {
    return !rabbitmq.equals(INSTALLED);
  }

  /** As {@link #rabbitmqTools()}, for PostgreSQL's server programs. */
  Optional<Path> postgresqlTools() {
    return tools("postgresql-" + postgresql + "/bin", "pg_ctl", POSTGRESQL_VARIABLE, postgresql);
  }

  boolean postgresqlFromRoot() {
    return !postgresql.equals(INSTALLED);
  }

  private Optional<Path> tools(String folder, String probe, String variable, String value) {
    Path tools = dir.resolve(folder);
    if (Files.isExecutable(tools.resolve(probe))) {
      return Optional.of(tools);
    }
    log.warn(
        "{}={} is chosen, but {} has no {}: run embedded/engines.sh ensure (as root)",
        variable,
        value,
        tools,
        probe);
    return Optional.empty();
  }

  @Override
  public String toString() {
    return "RabbitMQ " + rabbitmq + ", PostgreSQL " + postgresql;
  }
}
