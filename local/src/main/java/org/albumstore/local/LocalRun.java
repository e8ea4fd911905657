package org.albumstore.local;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.albumstore.client.ClientResult;
import org.albumstore.client.ClientRun;
import org.albumstore.client.ClientSettings;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.consumer.AlbumStoreConsumer;
import org.albumstore.consumer.ConsumerSettings;
import org.albumstore.consumer.metrics.MetricsHttpServer;
import org.albumstore.consumer.metrics.MetricsSettings;
import org.albumstore.embedded.Resolved;
import org.albumstore.embedded.ServiceResolver;
import org.albumstore.embedded.Source;
import org.albumstore.local.LocalStack.StoppedException;
import org.albumstore.server.AlbumStoreServer;
import org.albumstore.server.ServerSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One launch: PostgreSQL, the broker, the server and the consumer, each started and announced in
 * that order; then the load client; then everything stopped, newest first.
 *
 * <p>{@link #call()} runs on the main thread; {@link #stop(Duration)} is the Ctrl-C path ({@link
 * StopSignals}, or the shutdown hook) and may come at any point. It waits (bounded) until the main
 * thread has let go of everything, because the JVM may exit as soon as it returns: a client run is
 * asked to end and write its report, the stack is closed, and a part that was still starting is
 * stopped by the main thread the moment it is up ({@link LocalStack}).
 */
final class LocalRun implements Launch {
  private static final Logger log = LoggerFactory.getLogger(LocalRun.class);

  static final int STEPS = 5;

  /** Long enough for a first connection to the broker and the pool's first connection. */
  static final Duration HEALTH_WAIT = Duration.ofSeconds(20);

  private final LaunchCommand options;
  private final Env env;
  private final PrintStream out;
  private final PrintStream err;
  private final LocalStack stack;
  private final CountDownLatch done = new CountDownLatch(1);
  private final CountDownLatch clientDone = new CountDownLatch(1);
  private volatile boolean stopRequested;

  /** The client run once created; stop() ends it. */
  private volatile ClientRun client;

  private final AtomicBoolean stopStarted = new AtomicBoolean();

  LocalRun(LaunchCommand options, Env env, PrintStream out, PrintStream err) {
    this.options = options;
    this.env = env;
    this.out = out;
    this.err = err;
    this.stack = new LocalStack(out);
  }

  /**
   * Runs the launch to the end.
   *
   * @return the client's exit code; 2 for a setting that does not parse, 3 when a part could not be
   *     started, 130 when stopped
   */
  @Override
  public int call() {
    try {
      out.println(
          "Album Store on this machine: database, broker, server, consumer, then the load client."
              + " Ctrl-C stops everything.");
      StartedStack started = start();
      return runClient(started);
    } catch (Exception e) {
      return LaunchFailure.report(e, out, err, log, "the stack");
    } finally {
      try {
        stack.close(LocalMain.SHUTDOWN_LIMIT);
      } finally {
        done.countDown();
      }
    }
  }

  private StartedStack start() throws Exception {
    // Every setting is read, and a wrong one reported, before anything is started.
    int port = options.httpPort(env);
    ConsumerSettings cs = ConsumerSettings.from(env);
    MetricsSettings metrics = consumerMetrics();
    ServerSettings.from(
        env.withOverrides(Map.of(CommonSettings.HTTP_PORT.variable(), Integer.toString(port))));
    ServiceResolver resolver = new ServiceResolver(env, options.embedded);
    // Both decided before either starts: a configured address that does not answer is reported
    // before anything was started for nothing.
    resolver.databaseSource();
    resolver.brokerSource();

    long t0 = System.nanoTime();
    Resolved<DatabaseSettings> database = own(resolver.resolveDatabase(), "embedded PostgreSQL");
    applySchema(database.settings());
    step(1, StartedStack.databaseLine(database) + "; schema applied", t0);

    stack.checkRunning("broker");
    t0 = System.nanoTime();
    Resolved<AmqpSettings> broker = own(resolver.resolveBroker(), "embedded broker");
    step(2, StartedStack.brokerLine(broker), t0);

    stack.checkRunning("server");
    t0 = System.nanoTime();
    AlbumStoreServer server =
        stack.add("server", AlbumStoreServer.start(serverEnv(broker.settings(), database, port)));
    ServerHealth.awaitUp(server.baseUrl(), HEALTH_WAIT);
    step(3, StartedStack.serverLine(server), t0);

    stack.checkRunning("consumer");
    t0 = System.nanoTime();
    AlbumStoreConsumer consumer =
        stack.add(
            "consumer",
            AlbumStoreConsumer.start(cs, broker.settings(), database.settings(), metrics));
    StartedStack started =
        new StartedStack(database, broker, server, consumer, cs, metricsUrl(metrics, consumer));
    step(4, started.consumerLine(), t0);
    return started;
  }

  /**
   * The consumer's {@code /metrics} (the client reads it for its time-per-tier table): {@code
   * ALBUMSTORE_METRICS_PORT} and {@code _BIND} as for the consumer's jar, but on a free port by
   * default, for the same reason as the server's.
   */
  private MetricsSettings consumerMetrics() {
    return MetricsSettings.from(
        env.withOverrides(
            Map.of(
                MetricsSettings.PORT.variable(),
                MetricsSettings.PORT.withDefault(0).readText(env))));
  }

  /** Where the client reaches the consumer's metrics, or null when they are off. */
  private static String metricsUrl(MetricsSettings s, AlbumStoreConsumer consumer) {
    if (consumer.metricsPort() < 0) {
      return null;
    }
    String host = s.bindAddress();
    if (host.equals("0.0.0.0") || host.equals("::")) {
      host = "127.0.0.1"; // every address: loopback is one of them
    } else if (host.indexOf(':') >= 0) {
      host = "[" + host + "]";
    }
    return "http://" + host + ":" + consumer.metricsPort() + MetricsHttpServer.PATH;
  }

  /**
   * An embedded part is this run's to stop; a local or configured server is someone else's and is
   * left running (closing its {@link Resolved} would do nothing anyway).
   */
  private <S> Resolved<S> own(Resolved<S> part, String name) {
    return part.source() == Source.EMBEDDED ? stack.add(name, part) : part;
  }

  private Env serverEnv(AmqpSettings amqp, Resolved<DatabaseSettings> database, int port) {
    DatabaseSettings db = database.settings();
    Map<String, String> overrides = new HashMap<>(amqp.asVariables());
    overrides.putAll(db.asVariables());
    overrides.put(CommonSettings.HTTP_PORT.variable(), Integer.toString(port));
    return env.withOverrides(overrides);
  }

  /** The consumer writes into the tables at once; the schema must be there first (idempotent). */
  private static void applySchema(DatabaseSettings db) throws SQLException {
    try (HikariDataSource ds = Databases.pool(db, "albumstore-schema", 1)) {
      Schema.apply(ds);
    }
  }

  private int runClient(StartedStack s) {
    List<String> args =
        ClientArguments.build(
            s.server().baseUrl(),
            s.broker().settings(),
            s.broker().source(),
            ClientSettings.RMQ_API.isSet(env),
            s.server().metricsUrl(),
            s.consumerMetricsUrl(),
            options.clientArgs);
    out.println("[5/" + STEPS + "] client: " + ClientArguments.display(args));
    // Published before stopRequested is checked, read by stop() after setting it: one of the two
    // threads sees the other's write (both volatile), so a client is never left running.
    ClientRun run = new ClientRun(env, out, err, args.toArray(String[]::new));
    client = run;
    if (stopRequested) {
      throw new StoppedException("stopped before starting the client");
    }
    ClientResult result;
    try {
      result = run.execute();
    } finally {
      clientDone.countDown();
    }
    List<String> lines = s.reportLines();
    out.println("stack:");
    lines.forEach(l -> out.println("  " + l));
    if (s.leavesServersRunning()) {
      out.println("  (local and configured servers are left running)");
    }
    if (result.summary() != null && result.summary().outputs() != null) {
      Path dir = Path.of(result.summary().outputs().directory());
      try {
        StartedStack.writeReport(dir, lines);
      } catch (IOException e) {
        log.warn("cannot write {} to {}: {}", StartedStack.REPORT_FILE, dir, e.toString());
      }
    }
    return result.exitCode();
  }

  private void step(int n, String what, long startNanos) {
    out.printf(
        Locale.ROOT,
        "[%d/%d] %s (%.1f s)%n",
        n,
        STEPS,
        what,
        (System.nanoTime() - startNanos) / 1e9);
  }

  /**
   * The Ctrl-C path: ends a client run (its report of what ran is still printed), stops the stack,
   * and waits for the main thread to finish, all within {@code limit}. Only the first call does
   * this; later ones (the shutdown hook after a handled signal) return at once.
   *
   * @return whether the launch has finished
   */
  @Override
  public boolean stop(Duration limit) {
    if (done.getCount() == 0 || !stopStarted.compareAndSet(false, true)) {
      return done.getCount() == 0; // finished normally (System.exit runs the hook), or stopping
    }
    long deadline = System.nanoTime() + limit.toNanos();
    stopRequested = true;
    err.println(
        "stopping: the load client, then the consumer, the server, the broker, the database");
    try {
      ClientRun c = client;
      if (c != null) {
        // A run that has not started yet never starts; one in progress writes its report.
        c.stop(Duration.ofNanos(Math.max(0, remaining(deadline))));
        clientDone.await(Math.max(0, remaining(deadline)), TimeUnit.NANOSECONDS);
      }
      stack.close(Duration.ofNanos(Math.max(0, remaining(deadline))));
      if (done.await(Math.max(0, remaining(deadline)), TimeUnit.NANOSECONDS)) {
        return true;
      }
      err.println("gave up waiting for the launcher to finish after " + limit.toSeconds() + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  private static long remaining(long deadline) {
    return deadline - System.nanoTime();
  }
}
