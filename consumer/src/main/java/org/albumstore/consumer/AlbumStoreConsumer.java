package org.albumstore.consumer;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.common.tls.TlsFailures;
import org.albumstore.consumer.internal.amqp.BacklogWatch;
import org.albumstore.consumer.internal.amqp.CommitAnnouncer;
import org.albumstore.consumer.internal.amqp.DeadLetterWatch;
import org.albumstore.consumer.internal.batch.BatchWait;
import org.albumstore.consumer.internal.batch.ChannelWorker;
import org.albumstore.consumer.internal.batch.WorkerConfig;
import org.albumstore.consumer.internal.ledger.LedgerPruner;
import org.albumstore.consumer.internal.metrics.ConsumerHealth;
import org.albumstore.consumer.internal.metrics.ConsumerMetrics;
import org.albumstore.consumer.internal.metrics.MetricsHttpServer;
import org.albumstore.consumer.internal.metrics.RateReporter;
import org.albumstore.consumer.internal.retry.OutageLog;
import org.albumstore.consumer.sql.AggregateWriter;
import org.albumstore.consumer.sql.BatchWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running consumer: M broker connections × K channels, one worker thread per channel, one
 * database pool, one rate reporter. Delivery → batch → one transaction → ack.
 *
 * <p>Guarantee: a message is acknowledged only after the transaction that applied it committed (or
 * after the dead-letter queue confirmed it), so a crash at any point loses nothing; what was
 * applied but not acknowledged is redelivered and changes nothing twice.
 *
 * <p>Shutdown ({@link #close()}, also run by the SIGTERM hook): report not ready ({@code /health}
 * 503 DRAINING), let every worker finish and acknowledge the batch in hand, then close the channels
 * (which requeues whatever was delivered but not taken into a batch), the connections and the pool,
 * in that order, each wait bounded. The consumers are not cancelled first: on RabbitMQ 3.10 a
 * quorum queue keeps the unacknowledged deliveries of a cancelled consumer whose broker node drops
 * out before its channel closes, for good; a consumer still registered gets them requeued
 * (ConsumerNodeLossIT). What arrives during the drain waits unapplied and goes back with the rest.
 */
public final class AlbumStoreConsumer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AlbumStoreConsumer.class);

  /** How long close() waits for all workers to finish their batch in hand. */
  static final long WORKER_EXIT_MILLIS = 15_000;

  static final int CONNECTION_CLOSE_MILLIS = 5_000;
  static final long DEAD_LETTER_CONFIRM_MILLIS = 5_000;

  private final ConsumerMetrics metrics = new ConsumerMetrics();
  private final List<Connection> connections = new ArrayList<>();
  private final List<ChannelWorker> workers = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ConsumerHealth health =
      new ConsumerHealth(this::brokerUp, this::databaseUp, this::allConsuming);
  private HikariDataSource pool;
  private HikariDataSource ledgerPool;
  private LedgerPruner pruner;
  private OutageLog databaseOutages;
  private CommitAnnouncer announcer;
  private BacklogWatch backlog;
  private DeadLetterWatch deadLetterWatch;
  private MetricsHttpServer metricsServer;
  private String metricsBindAddress;
  private RateReporter reporter;
  private final AggregateWriter.Factory writers;

  private AlbumStoreConsumer(AggregateWriter.Factory writers) {
    this.writers = writers;
  }

  /**
   * Opens the pool (and applies the schema if asked), declares the topology, opens the connections
   * and starts consuming. On failure, closes whatever it opened and rethrows.
   */
  public static AlbumStoreConsumer start(
      ConsumerSettings settings, AmqpSettings amqp, DatabaseSettings database)
      throws IOException, TimeoutException, SQLException {
    return start(settings, amqp, database, MetricsSettings.OFF);
  }

  /** As below, with the default {@link LedgerRetention}. */
  public static AlbumStoreConsumer start(
      ConsumerSettings settings,
      AmqpSettings amqp,
      DatabaseSettings database,
      MetricsSettings metricsSettings)
      throws IOException, TimeoutException, SQLException {
    return start(settings, amqp, database, metricsSettings, LedgerRetention.DEFAULT);
  }

  /**
   * As {@link #start(ConsumerSettings, AmqpSettings, DatabaseSettings)}, and serves {@code GET
   * /metrics} and {@code /health} as {@code metricsSettings} say (before consuming, so a port
   * already taken fails the start before anything is consumed), and keeps the ledger to {@code
   * retention}.
   */
  public static AlbumStoreConsumer start(
      ConsumerSettings settings,
      AmqpSettings amqp,
      DatabaseSettings database,
      MetricsSettings metricsSettings,
      LedgerRetention retention)
      throws IOException, TimeoutException, SQLException {
    return start(settings, amqp, database, metricsSettings, retention, BatchWriter::new);
  }

  /**
   * As {@link #start(ConsumerSettings, AmqpSettings, DatabaseSettings, MetricsSettings,
   * LedgerRetention)}, with the batches applied by what {@code writers} makes on the pool: the seam
   * through which a test plants a bug around the real {@link BatchWriter} to prove a checker
   * catches it. The consumer's command line always passes {@code BatchWriter::new}.
   */
  public static AlbumStoreConsumer start(
      ConsumerSettings settings,
      AmqpSettings amqp,
      DatabaseSettings database,
      MetricsSettings metricsSettings,
      LedgerRetention retention,
      AggregateWriter.Factory writers)
      throws IOException, TimeoutException, SQLException {
    AlbumStoreConsumer consumer = new AlbumStoreConsumer(writers);
    try {
      consumer.open(settings, amqp, database, metricsSettings, retention);
      return consumer;
    } catch (IOException | TimeoutException | SQLException | RuntimeException e) {
      consumer.close();
      throw e;
    }
  }

  private void open(
      ConsumerSettings settings,
      AmqpSettings amqp,
      DatabaseSettings database,
      MetricsSettings metricsSettings,
      LedgerRetention retention)
      throws IOException, TimeoutException, SQLException {
    log.info("starting: {}, {}, {}, {}", settings, amqp, database, retention);
    pool = Databases.pool(database, "albumstore-consumer", settings.dbPoolSize());
    metrics.bindPool(pool);
    metrics.bindHealth(health);
    if (metricsSettings.enabled()) {
      metricsServer = serveMetrics(metricsSettings);
      metricsBindAddress = metricsSettings.bindAddress();
    }
    if (settings.initSchema()) {
      applySchema(database);
    }
    startPruner(database, retention);
    databaseOutages = new OutageLog("database writes");
    String instance = UUID.randomUUID().toString().substring(0, 8);
    // A factory of its own, outside amqp-client's metrics: those count the write queue's traffic;
    // the announcements have their own counter.
    announcer =
        CommitAnnouncer.start(
            openConnection(
                AmqpConnections.factory(amqp), amqp, "albumstore-consumer-" + instance, "announce"),
            amqp,
            metrics.registry());
    ConnectionFactory factory = AmqpConnections.factory(amqp);
    metrics.bindAmqp(factory);
    WorkerConfig config =
        new WorkerConfig(
            amqp,
            settings.prefetch(),
            settings.batchSize(),
            batchWait(settings, amqp, instance),
            DEAD_LETTER_CONFIRM_MILLIS,
            writers.create(pool),
            announcer,
            metrics,
            databaseOutages,
            new OutageLog("dead-letter publishing"));
    startWorkers(settings, config, factory, instance);
    deadLetterWatch =
        DeadLetterWatch.start(
            openConnection(
                AmqpConnections.factory(amqp),
                amqp,
                "albumstore-consumer-" + instance,
                "dead-letters"),
            amqp,
            metrics.registry());
    reporter = new RateReporter(metrics, settings.statsIntervalSeconds());
    log.info(
        "consuming {} with {} connections x {} channels, prefetch {}, batches of up to {} (wait {}"
            + " ms, {} ms during a backlog), {} partition(s)",
        amqp.queue(),
        settings.connections(),
        settings.channelsPerConnection(),
        settings.prefetch(),
        settings.batchSize(),
        settings.batchWaitMillis(),
        settings.backlogWaitMillis(),
        amqp.partitions());
  }

  /**
   * The partial-batch wait; a backlog wait starts the watch that arms it, on a connection of its
   * own (a factory outside amqp-client's metrics, like the announcer's).
   */
  private BatchWait batchWait(ConsumerSettings settings, AmqpSettings amqp, String instance)
      throws IOException, TimeoutException {
    if (settings.batchWaitMillis() > 0 || settings.backlogWaitMillis() == 0) {
      return BatchWait.fixed(settings.batchWaitMillis());
    }
    backlog =
        BacklogWatch.start(
            openConnection(
                AmqpConnections.factory(amqp), amqp, "albumstore-consumer-" + instance, "backlog"),
            amqp,
            (long) settings.workers() * settings.batchSize(),
            settings.backlogWaitMillis());
    return new BatchWait(0, settings.backlogWaitMillis(), backlog);
  }

  private void applySchema(DatabaseSettings database) throws SQLException {
    try {
      Schema.apply(pool);
    } catch (SQLException e) {
      // Names the database: the pool's own message ("Connection is not available") does not.
      throw new SQLException(
          "database " + database.jdbcUrl() + ": " + TlsFailures.describe(e), e.getSQLState(), e);
    }
    log.info("schema applied to {}", database.jdbcUrl());
  }

  /**
   * Starts the ledger's background delete, on a pool of its own: the pruner holds its connection
   * for a whole run, never one a worker needs.
   */
  private void startPruner(DatabaseSettings database, LedgerRetention retention) {
    ledgerPool = Databases.pool(database, "albumstore-consumer-ledger", 1);
    metrics.bindPool(ledgerPool);
    pruner = new LedgerPruner(ledgerPool, retention);
    pruner.bindTo(metrics.registry());
    pruner.start();
  }

  /** Opens the M connections and starts K workers on each, declaring the topology first. */
  private void startWorkers(
      ConsumerSettings settings, WorkerConfig config, ConnectionFactory factory, String instance)
      throws IOException, TimeoutException {
    AmqpSettings amqp = config.amqp();
    List<AmqpSettings.Partition> partitions = null;
    for (int c = 1; c <= settings.connections(); c++) {
      Connection connection =
          openConnection(factory, amqp, "albumstore-consumer-" + instance, Integer.toString(c));
      connections.add(connection);
      for (int k = 1; k <= settings.channelsPerConnection(); k++) {
        Channel channel = connection.createChannel();
        if (c == 1 && k == 1) {
          // On a channel that stays open: amqp-client's topology recovery re-declares on the
          // channel that declared, so a short-lived one would make every recovery fail noisily.
          Topology.declare(channel, amqp);
          partitions = consumable(connection, amqp);
        }
        channel.basicQos(settings.prefetch());
        String name = "albumstore-consumer-" + instance + "-c" + c + "-ch" + k;
        ChannelWorker worker =
            new ChannelWorker(
                config, connection, channel, name, priority(settings, c, k), partitions);
        workers.add(worker);
        worker.start();
      }
    }
  }

  /**
   * The partitions to consume ({@link Topology#depths}); a partition past P means P shrank while it
   * still existed: it is drained, and the log says how to retire it.
   */
  private static List<AmqpSettings.Partition> consumable(Connection connection, AmqpSettings amqp)
      throws IOException, TimeoutException {
    Map<AmqpSettings.Partition, Long> depths = Topology.depths(connection, amqp);
    depths.forEach(
        (p, messages) -> {
          if (p.index() >= amqp.partitions()) {
            log.warn(
                "draining {}, a partition past {}={} (it holds {} messages): once no server"
                    + " publishes to it and it is empty, delete it and its .dlq, or it is consumed"
                    + " on every start",
                p.queue(),
                CommonSettings.QUEUE_PARTITIONS.variable(),
                amqp.partitions(),
                messages);
          }
        });
    return List.copyOf(depths.keySet());
  }

  /** A connection named {@code prefix-suffix}; a failure names the broker. */
  private static Connection openConnection(
      ConnectionFactory factory, AmqpSettings amqp, String prefix, String suffix)
      throws IOException, TimeoutException {
    try {
      return AmqpConnections.open(factory, amqp, prefix + "-" + suffix);
    } catch (IOException e) {
      throw new IOException("broker " + amqp.redactedUri() + ": " + TlsFailures.describe(e), e);
    }
  }

  /**
   * The consumer priority of channel {@code k} of connection {@code c} (both from 1): the first
   * channels of all connections rank above all second channels, and so on, so that while the top
   * worker's connection recovers the flow goes to another connection, not to its sibling channel.
   * All M×K workers get distinct priorities, M×K the highest; several instances rank their workers
   * alike, and the broker alternates between equal priorities.
   */
  static int priority(ConsumerSettings settings, int c, int k) {
    int m = settings.connections();
    return (settings.channelsPerConnection() - k) * m + (m - c) + 1;
  }

  private MetricsHttpServer serveMetrics(MetricsSettings s) throws IOException {
    try {
      MetricsHttpServer server =
          MetricsHttpServer.start(s.bindAddress(), s.port(), metrics::scrape, health);
      log.info(
          "metrics on http://{}:{}{}, health on {} and {}",
          s.bindAddress(),
          server.port(),
          MetricsHttpServer.PATH,
          MetricsHttpServer.HEALTH,
          MetricsHttpServer.LIVENESS);
      return server;
    } catch (IOException e) {
      throw new IOException(
          "cannot serve metrics on "
              + s.bindAddress()
              + ":"
              + s.port()
              + " ("
              + MetricsSettings.PORT.flag()
              + "/"
              + MetricsSettings.PORT.variable()
              + ", -1 turns it off): "
              + e,
          e);
    }
  }

  /** The port of {@code GET /metrics}, or -1 when not served. */
  public int metricsPort() {
    return metricsServer == null ? -1 : metricsServer.port();
  }

  /**
   * Where a client on this machine reads {@code GET /metrics}, e.g. {@code
   * http://127.0.0.1:9091/metrics}, or null when not served. Bound to every address (0.0.0.0 or
   * ::), it answers on the loopback address, which is one of them.
   */
  public String metricsUrl() {
    return metricsServer == null ? null : metricsUrl(metricsBindAddress, metricsServer.port());
  }

  static String metricsUrl(String bindAddress, int port) {
    String host = bindAddress;
    if (host.equals("0.0.0.0") || host.equals("::")) {
      host = "127.0.0.1";
    } else if (host.indexOf(':') >= 0) {
      host = "[" + host + "]";
    }
    return "http://" + host + ":" + port + MetricsHttpServer.PATH;
  }

  private boolean brokerUp() {
    List<Connection> open = List.copyOf(connections);
    return !open.isEmpty() && open.stream().allMatch(Connection::isOpen);
  }

  /**
   * Whether the database answers: not while writes are failing, else a pooled connection borrowed
   * and validated (at most the pool's 5 s borrow timeout when it is unreachable).
   */
  private boolean databaseUp() {
    if (pool == null || (databaseOutages != null && databaseOutages.failing())) {
      return false;
    }
    try (java.sql.Connection c = pool.getConnection()) {
      return c.isValid(2);
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  private boolean allConsuming() {
    List<ChannelWorker> running = List.copyOf(workers);
    return !running.isEmpty() && running.stream().allMatch(ChannelWorker::consuming);
  }

  /** Totals since start; safe to call at any time, also after close. */
  public ConsumerCounters counters() {
    return metrics.snapshot();
  }

  /** Stops consuming and releases everything, in reverse order of opening. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    health.drain();
    log.info("stopping: /health answers 503 DRAINING; finishing the batches in hand");
    workers.forEach(ChannelWorker::requestStop);
    awaitWorkers();
    for (int i = workers.size() - 1; i >= 0; i--) {
      workers.get(i).closeChannels();
    }
    for (int i = connections.size() - 1; i >= 0; i--) {
      closeConnection(connections.get(i));
    }
    if (backlog != null) {
      backlog.close();
    }
    if (deadLetterWatch != null) {
      deadLetterWatch.close();
    }
    if (announcer != null) {
      announcer.close();
    }
    if (reporter != null) {
      reporter.close();
    }
    if (pruner != null) {
      pruner.close();
    }
    if (ledgerPool != null) {
      ledgerPool.close();
    }
    if (pool != null) {
      pool.close();
    }
    if (metricsServer != null) {
      metricsServer.close();
    }
    metrics.close();
    log.info("stopped: {}", metrics.snapshot());
  }

  private void awaitWorkers() {
    long deadline = System.nanoTime() + WORKER_EXIT_MILLIS * 1_000_000;
    try {
      for (ChannelWorker w : workers) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (!w.awaitExit(left)) {
          log.warn("{} did not finish within {} ms; interrupting it", w.name(), WORKER_EXIT_MILLIS);
          w.interrupt();
          if (!w.awaitExit(2_000)) {
            log.warn(
                "{} still running; its messages are requeued when its channel closes", w.name());
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("interrupted while waiting for workers; closing anyway");
    }
  }

  private static void closeConnection(Connection c) {
    try {
      c.close(CONNECTION_CLOSE_MILLIS);
    } catch (IOException | RuntimeException e) {
      log.warn("closing {} failed, aborting it: {}", c.getClientProvidedName(), e.toString());
      c.abort(CONNECTION_CLOSE_MILLIS);
    }
  }
}
