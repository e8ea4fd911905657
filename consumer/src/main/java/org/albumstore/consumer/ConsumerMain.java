package org.albumstore.consumer;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.ServiceOptions;
import org.albumstore.common.tls.TlsFailures;
import org.albumstore.consumer.ledger.LedgerRetention;
import org.albumstore.consumer.metrics.MetricsSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar albumstore-consumer.jar [options]}: runs the consumer until SIGTERM/Ctrl-C.
 *
 * <p>Every flag overrides the environment variable of the same meaning, which overrides the
 * default. Flags are read as text and go through the same {@link Env} parsing as the variables, so
 * one set of rules (and one error message naming the setting) applies to both.
 */
@Command(
    name = "albumstore-consumer",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Applies Album Store writes from RabbitMQ to PostgreSQL in batches: M connections x K"
            + " channels, manual acks after commit, exactly-once counter effect.")
public final class ConsumerMain implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ConsumerMain.class);

  @Spec CommandSpec spec;

  @Mixin ServiceOptions service = new ServiceOptions();

  @Option(
      names = "--connections",
      paramLabel = "M",
      description =
          "Broker connections. Env "
              + ConsumerSettings.CONNECTIONS
              + ". Default: "
              + ConsumerSettings.DEFAULT_CONNECTIONS)
  String connections;

  @Option(
      names = "--channels",
      paramLabel = "K",
      description =
          "Consuming channels per connection, each with its own worker thread. Env "
              + ConsumerSettings.CHANNELS
              + ". Default: "
              + ConsumerSettings.DEFAULT_CHANNELS)
  String channels;

  @Option(
      names = "--prefetch",
      paramLabel = "N",
      description =
          "Unacknowledged messages per channel (basic.qos). Env "
              + ConsumerSettings.PREFETCH
              + ". Default: "
              + ConsumerSettings.DEFAULT_PREFETCH)
  String prefetch;

  @Option(
      names = "--batch-size",
      paramLabel = "N",
      description =
          "Messages per database transaction, at most the prefetch. Env "
              + ConsumerSettings.BATCH_SIZE
              + ". Default: "
              + ConsumerSettings.DEFAULT_BATCH_SIZE)
  String batchSize;

  @Option(
      names = "--batch-wait-ms",
      paramLabel = "MS",
      description =
          "How long a partial batch waits for more messages. Env "
              + ConsumerSettings.BATCH_WAIT_MS
              + ". Default: "
              + ConsumerSettings.DEFAULT_BATCH_WAIT_MS)
  String batchWaitMs;

  @Option(
      names = "--db-pool-size",
      paramLabel = "N",
      description =
          "Database connections. Env "
              + ConsumerSettings.DB_POOL_SIZE
              + ". Default: connections x channels")
  String dbPoolSize;

  @Option(
      names = "--init-schema",
      arity = "0..1",
      fallbackValue = "true",
      paramLabel = "true|false",
      description =
          "Apply schema.sql at start (idempotent). Env "
              + ConsumerSettings.INIT_SCHEMA
              + ". Default: "
              + ConsumerSettings.DEFAULT_INIT_SCHEMA)
  String initSchema;

  @Option(
      names = "--stats-interval",
      paramLabel = "SECONDS",
      description =
          "Period of the applied-rate log line. Env "
              + ConsumerSettings.STATS_INTERVAL
              + ". Default: "
              + ConsumerSettings.DEFAULT_STATS_INTERVAL)
  String statsInterval;

  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      description =
          "Port of GET /metrics (Prometheus text format); 0 = any free port, -1 = off. Env "
              + MetricsSettings.PORT
              + ". Default: "
              + MetricsSettings.DEFAULT_PORT)
  String metricsPort;

  @Option(
      names = "--metrics-bind",
      paramLabel = "ADDRESS",
      description =
          "Address the metrics port listens on; 0.0.0.0 exposes it to the network (no"
              + " authentication). Env "
              + MetricsSettings.BIND
              + ". Default: "
              + MetricsSettings.DEFAULT_BIND)
  String metricsBind;

  @Option(
      names = "--ledger-retention",
      paramLabel = "DURATION",
      description =
          "How long the exactly-once ledger remembers an applied ID (a duplicate arriving later"
              + " applies again); older rows are deleted in the background. A number and s, m, h"
              + " or d. Env "
              + LedgerRetention.RETENTION
              + ". Default: "
              + LedgerRetention.DEFAULT_RETENTION)
  String ledgerRetention;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ConsumerMain()).execute(args));
  }

  /** The flags given, keyed by the environment variable each overrides. */
  Map<String, String> overrides() {
    Map<String, String> m = new HashMap<>();
    service.putGiven(m);
    m.put(ConsumerSettings.CONNECTIONS, connections);
    m.put(ConsumerSettings.CHANNELS, channels);
    m.put(ConsumerSettings.PREFETCH, prefetch);
    m.put(ConsumerSettings.BATCH_SIZE, batchSize);
    m.put(ConsumerSettings.BATCH_WAIT_MS, batchWaitMs);
    m.put(ConsumerSettings.DB_POOL_SIZE, dbPoolSize);
    m.put(ConsumerSettings.INIT_SCHEMA, initSchema);
    m.put(ConsumerSettings.STATS_INTERVAL, statsInterval);
    m.put(MetricsSettings.PORT, metricsPort);
    m.put(MetricsSettings.BIND, metricsBind);
    m.put(LedgerRetention.RETENTION, ledgerRetention);
    return m;
  }

  @Override
  public Integer call() throws Exception {
    Env env = Env.system().withOverrides(overrides());
    final ConsumerSettings settings;
    final AmqpSettings amqp;
    final DatabaseSettings database;
    final MetricsSettings metricsSettings;
    final LedgerRetention retention;
    try {
      settings = ConsumerSettings.from(env);
      amqp = AmqpSettings.from(env);
      database = DatabaseSettings.from(env);
      metricsSettings = MetricsSettings.from(env);
      retention = LedgerRetention.from(env);
    } catch (IllegalArgumentException e) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("Invalid setting: " + e.getMessage() + " (see --help)");
      err.flush();
      return CommandLine.ExitCode.USAGE;
    }
    final AlbumStoreConsumer consumer;
    try {
      consumer = AlbumStoreConsumer.start(settings, amqp, database, metricsSettings, retention);
    } catch (IOException | TimeoutException | SQLException e) {
      if (TlsFailures.explain(e).isPresent()) {
        // A refused certificate is a setting to fix, said in one line; a trace would bury it.
        LOG.error("cannot start: {}", e.getMessage());
      } else {
        LOG.error("cannot start: {}", e.toString(), e);
      }
      return CommandLine.ExitCode.SOFTWARE;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LOG.info("shutdown signal received");
                  consumer.close();
                  stopped.countDown();
                },
                "albumstore-consumer-shutdown"));
    stopped.await();
    return CommandLine.ExitCode.OK;
  }
}
