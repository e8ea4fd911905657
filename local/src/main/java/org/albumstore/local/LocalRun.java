package org.albumstore.local;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.albumstore.client.ClientResult;
import org.albumstore.client.ClientSettings;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.consumer.AlbumStoreConsumer;
import org.albumstore.consumer.ConsumerSettings;
import org.albumstore.consumer.MetricsSettings;
import org.albumstore.embedded.Resolved;
import org.albumstore.embedded.ServiceResolver;
import org.albumstore.embedded.Source;
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
final class LocalRun extends LaunchBase {
  private static final Logger log = LoggerFactory.getLogger(LocalRun.class);

  static final int STEPS = 5;

  /** Long enough for a first connection to the broker and the pool's first connection. */
  static final Duration HEALTH_WAIT = Duration.ofSeconds(20);

  LocalRun(LaunchCommand options, Env env, PrintStream out, PrintStream err) {
    super(options, env, out, err, STEPS);
  }

  @Override
  protected String stopOrder() {
    return "the load client, then the consumer, the server, the broker, the database";
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
      return runClientOn(started);
    } catch (Exception e) {
      return LaunchFailure.report(e, out, err, log, "the stack");
    } finally {
      try {
        stack.close(SHUTDOWN_LIMIT);
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
            AlbumStoreConsumer.start(
                AlbumStoreConsumer.Options.of(cs, broker.settings(), database.settings())
                    .withMetrics(metrics)));
    StartedStack started =
        new StartedStack(database, broker, server, consumer, cs, consumer.metricsUrl());
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

  private int runClientOn(StartedStack s) {
    List<String> args =
        ClientArguments.build(
            s.server().baseUrl(),
            s.broker().settings(),
            s.broker().source(),
            ClientSettings.RMQ_API.isSet(env),
            s.server().metricsUrl(),
            s.consumerMetricsUrl(),
            options.clientArgs);
    ClientResult result = runClient(args);
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
}
