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
import java.util.Objects;
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
import org.albumstore.consumer.internal.metrics.DatabaseProbe;
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
 * <p>Who sees what: {@link #start} opens everything on the calling thread into an {@link Opening}
 * that no other thread sees, then freezes it into a {@link Running} (immutable: its lists are
 * copies) and publishes that once, through the volatile field {@link #running}. The health
 * endpoint's threads read readiness only through that field: its volatile write follows every write
 * of start-up, so a thread that reads a {@code Running} sees the connections, workers and probe it
 * names fully built (happens-before through the volatile); while it is null, start-up is not over
 * and readiness is DOWN. What each part then answers is thread-safe of its own ({@link
 * Connection#isOpen}, {@link ChannelWorker#consuming}, the database probe's volatile answer, the
 * outage log). A start that fails closes what its {@code Opening} holds and publishes nothing.
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

  /**
   * What {@link #start} takes: the consumer's, the broker's and the database's settings, and, with
   * defaults, where it serves {@code /metrics} and {@code /health} (off), how long the ledger keeps
   * an ID ({@link LedgerRetention#DEFAULT}), and what applies the batches ({@link BatchWriter}).
   *
   * @param metrics serves {@code GET /metrics} and {@code /health} as these say, before consuming,
   *     so a port already taken fails the start before anything is consumed
   * @param writers makes, on the pool, what applies the batches: the seam through which a test
   *     plants a bug around the real {@link BatchWriter} to prove a checker catches it; the
   *     consumer's command line always passes {@code BatchWriter::new}
   */
  public record Options(
      ConsumerSettings settings,
      AmqpSettings amqp,
      DatabaseSettings database,
      MetricsSettings metrics,
      LedgerRetention retention,
      AggregateWriter.Factory writers) {

    public Options {
      Objects.requireNonNull(settings, "settings");
      Objects.requireNonNull(amqp, "amqp");
      Objects.requireNonNull(database, "database");
      Objects.requireNonNull(metrics, "metrics");
      Objects.requireNonNull(retention, "retention");
      Objects.requireNonNull(writers, "writers");
    }

    /** The three settings, with the defaults for the rest. */
    public static Options of(
        ConsumerSettings settings, AmqpSettings amqp, DatabaseSettings database) {
      return new Options(
          settings, amqp, database, MetricsSettings.OFF, LedgerRetention.DEFAULT, BatchWriter::new);
    }

    public Options withMetrics(MetricsSettings metrics) {
      return new Options(settings, amqp, database, metrics, retention, writers);
    }

    public Options withRetention(LedgerRetention retention) {
      return new Options(settings, amqp, database, metrics, retention, writers);
    }

    public Options withWriters(AggregateWriter.Factory writers) {
      return new Options(settings, amqp, database, metrics, retention, writers);
    }
  }

  /**
   * What start-up has opened so far, in the order it opens it: written by the starting thread only,
   * and never seen by another; {@link #frozen} is what it publishes or, on a failure, closes.
   */
  private static final class Opening {
    HikariDataSource pool;
    HikariDataSource probePool;
    DatabaseProbe databaseProbe;
    MetricsHttpServer metricsServer;
    String metricsUrl;
    HikariDataSource ledgerPool;
    LedgerPruner pruner;
    OutageLog databaseOutages;
    CommitAnnouncer announcer;
    BacklogWatch backlog;
    DeadLetterWatch deadLetters;
    final List<Connection> connections = new ArrayList<>();
    final List<ChannelWorker> workers = new ArrayList<>();
    RateReporter reporter;

    Running frozen() {
      return new Running(
          pool,
          probePool,
          databaseProbe,
          metricsServer,
          metricsUrl,
          ledgerPool,
          pruner,
          databaseOutages,
          announcer,
          backlog,
          deadLetters,
          List.copyOf(connections),
          List.copyOf(workers),
          reporter);
    }
  }

  /**
   * What start-up opened, immutable; a part not opened (not asked for, or a start that failed
   * before it) is null, and the lists hold what was opened.
   */
  private record Running(
      HikariDataSource pool,
      HikariDataSource probePool,
      DatabaseProbe databaseProbe,
      MetricsHttpServer metricsServer,
      String metricsUrl,
      HikariDataSource ledgerPool,
      LedgerPruner pruner,
      OutageLog databaseOutages,
      CommitAnnouncer announcer,
      BacklogWatch backlog,
      DeadLetterWatch deadLetters,
      List<Connection> connections,
      List<ChannelWorker> workers,
      RateReporter reporter) {

    boolean brokerUp() {
      return !connections.isEmpty() && connections.stream().allMatch(Connection::isOpen);
    }

    /** Not while writes are failing, else the probe's last answer (it never waits). */
    boolean databaseUp() {
      return !databaseOutages.failing() && databaseProbe.getAsBoolean();
    }

    boolean allConsuming() {
      return !workers.isEmpty() && workers.stream().allMatch(ChannelWorker::consuming);
    }
  }

  private final ConsumerMetrics metrics = new ConsumerMetrics();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ConsumerHealth health =
      new ConsumerHealth(this::brokerUp, this::databaseUp, this::allConsuming);
  private final AggregateWriter.Factory writers;

  /** Null until start-up is over; then set once, never again (see the class comment). */
  private volatile Running running;

  private AlbumStoreConsumer(AggregateWriter.Factory writers) {
    this.writers = writers;
  }

  /**
   * Starts with the defaults of {@link Options#of}: no metrics endpoint, the default retention, the
   * real writer.
   */
  public static AlbumStoreConsumer start(
      ConsumerSettings settings, AmqpSettings amqp, DatabaseSettings database)
      throws IOException, TimeoutException, SQLException {
    return start(Options.of(settings, amqp, database));
  }

  /**
   * Opens the pool (and applies the schema if asked), serves metrics and health if asked, declares
   * the topology, opens the connections and starts consuming. On failure, closes whatever it opened
   * and rethrows.
   */
  public static AlbumStoreConsumer start(Options options)
      throws IOException, TimeoutException, SQLException {
    AlbumStoreConsumer consumer = new AlbumStoreConsumer(options.writers());
    Opening opening = new Opening();
    try {
      consumer.open(options, opening);
    } catch (IOException | TimeoutException | SQLException | RuntimeException e) {
      consumer.closed.set(true);
      consumer.shutDown(opening.frozen());
      throw e;
    }
    consumer.running = opening.frozen();
    return consumer;
  }

  private void open(Options options, Opening o) throws IOException, TimeoutException, SQLException {
    ConsumerSettings settings = options.settings();
    AmqpSettings amqp = options.amqp();
    DatabaseSettings database = options.database();
    log.info("starting: {}, {}, {}, {}", settings, amqp, database, options.retention());
    o.pool = Databases.pool(database, "albumstore-consumer", settings.dbPoolSize());
    // A pool of its own: the probe neither takes a connection from the workers nor replaces the
    // dead ones they hold, so a worker that meets one after a failover retries as it logs.
    o.probePool = Databases.pool(database, "albumstore-consumer-probe", 1);
    o.databaseProbe = DatabaseProbe.start(o.probePool, DatabaseProbe.PERIOD_MILLIS);
    metrics.bindPool(o.pool);
    metrics.bindHealth(health);
    if (options.metrics().enabled()) {
      o.metricsServer = serveMetrics(options.metrics());
      o.metricsUrl = metricsUrl(options.metrics().bindAddress(), o.metricsServer.port());
    }
    if (settings.initSchema()) {
      applySchema(o.pool, database);
    }
    requireExpanded(o.pool, database);
    startPruner(o, database, options.retention());
    o.databaseOutages = new OutageLog("database writes");
    String instance = UUID.randomUUID().toString().substring(0, 8);
    // A factory of its own, outside amqp-client's metrics: those count the write queue's traffic;
    // the announcements have their own counter.
    o.announcer =
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
            batchWait(o, settings, amqp, instance),
            DEAD_LETTER_CONFIRM_MILLIS,
            writers.create(o.pool),
            o.announcer,
            metrics,
            o.databaseOutages,
            new OutageLog("dead-letter publishing"));
    startWorkers(o, settings, config, factory, instance);
    o.deadLetters =
        DeadLetterWatch.start(
            openConnection(
                AmqpConnections.factory(amqp),
                amqp,
                "albumstore-consumer-" + instance,
                "dead-letters"),
            amqp,
            metrics.registry());
    o.reporter = new RateReporter(metrics, settings.statsIntervalSeconds());
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
  private static BatchWait batchWait(
      Opening o, ConsumerSettings settings, AmqpSettings amqp, String instance)
      throws IOException, TimeoutException {
    if (settings.batchWaitMillis() > 0 || settings.backlogWaitMillis() == 0) {
      return BatchWait.fixed(settings.batchWaitMillis());
    }
    o.backlog =
        BacklogWatch.start(
            openConnection(
                AmqpConnections.factory(amqp), amqp, "albumstore-consumer-" + instance, "backlog"),
            amqp,
            (long) settings.workers() * settings.batchSize(),
            settings.backlogWaitMillis());
    return new BatchWait(0, settings.backlogWaitMillis(), o.backlog);
  }

  private static void applySchema(HikariDataSource pool, DatabaseSettings database)
      throws SQLException {
    try {
      Schema.apply(pool);
    } catch (SQLException e) {
      // Names the database: the pool's own message ("Connection is not available") does not.
      throw new SQLException(
          "database " + database.jdbcUrl() + ": " + TlsFailures.describe(e), e.getSQLState(), e);
    }
    log.info("schema applied to {}", database.jdbcUrl());
  }

  /** SQLSTATE 55000: what PostgreSQL says when an object is not ready for an operation. */
  private static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";

  /**
   * Refuses to start on a database whose schema predates this release: its batches would fail on
   * the missing column and retry until the expand. A database that cannot be asked now (an outage
   * at start-up) is not refused: the batches wait for it as for any outage.
   */
  private static void requireExpanded(HikariDataSource pool, DatabaseSettings database)
      throws SQLException {
    boolean expanded;
    try {
      expanded = Schema.isExpanded(pool);
    } catch (SQLException e) {
      log.warn("cannot check the schema of {} now: {}", database.jdbcUrl(), e.toString());
      return;
    }
    if (!expanded) {
      throw new SQLException(
          "the schema of "
              + database.jdbcUrl()
              + " predates this consumer (album_reviews.last_review_at is missing): expand it"
              + " first with `java -jar albumstore-consumer.jar schema` (online), or start with"
              + " --init-schema true",
          OBJECT_NOT_IN_PREREQUISITE_STATE);
    }
  }

  /**
   * Starts the ledger's background delete, on a pool of its own: the pruner holds its connection
   * for a whole run, never one a worker needs.
   */
  private void startPruner(Opening o, DatabaseSettings database, LedgerRetention retention) {
    o.ledgerPool = Databases.pool(database, "albumstore-consumer-ledger", 1);
    metrics.bindPool(o.ledgerPool);
    o.pruner = new LedgerPruner(o.ledgerPool, retention);
    o.pruner.bindTo(metrics.registry());
    o.pruner.start();
  }

  /** Opens the M connections and starts K workers on each, declaring the topology first. */
  private static void startWorkers(
      Opening o,
      ConsumerSettings settings,
      WorkerConfig config,
      ConnectionFactory factory,
      String instance)
      throws IOException, TimeoutException {
    AmqpSettings amqp = config.amqp();
    List<AmqpSettings.Partition> partitions = null;
    for (int c = 1; c <= settings.connections(); c++) {
      Connection connection =
          openConnection(factory, amqp, "albumstore-consumer-" + instance, Integer.toString(c));
      o.connections.add(connection);
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
        o.workers.add(worker);
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
    MetricsHttpServer server = running.metricsServer();
    return server == null ? -1 : server.port();
  }

  /**
   * Where a client on this machine reads {@code GET /metrics}, e.g. {@code
   * http://127.0.0.1:9091/metrics}, or null when not served. Bound to every address (0.0.0.0 or
   * ::), it answers on the loopback address, which is one of them.
   */
  public String metricsUrl() {
    return running.metricsUrl();
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
    Running r = running;
    return r != null && r.brokerUp();
  }

  private boolean databaseUp() {
    Running r = running;
    return r != null && r.databaseUp();
  }

  private boolean allConsuming() {
    Running r = running;
    return r != null && r.allConsuming();
  }

  /** Totals since start; safe to call at any time, also after close. */
  public ConsumerCounters counters() {
    return metrics.snapshot();
  }

  /** Stops consuming and releases everything, in reverse order of opening. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      shutDown(running);
    }
  }

  /** Closes what {@code r} holds (a part not opened is null); the metrics' registry last. */
  private void shutDown(Running r) {
    health.drain();
    log.info("stopping: /health answers 503 DRAINING; finishing the batches in hand");
    List<ChannelWorker> workers = r.workers();
    workers.forEach(ChannelWorker::requestStop);
    awaitWorkers(workers);
    for (int i = workers.size() - 1; i >= 0; i--) {
      workers.get(i).closeChannels();
    }
    for (int i = r.connections().size() - 1; i >= 0; i--) {
      closeConnection(r.connections().get(i));
    }
    closeAll(
        r.backlog(),
        r.deadLetters(),
        r.announcer(),
        r.reporter(),
        r.pruner(),
        r.ledgerPool(),
        r.databaseProbe(),
        r.probePool(),
        r.pool(),
        r.metricsServer(),
        metrics);
    log.info("stopped: {}", metrics.snapshot());
  }

  /** Closes each in turn, skipping those not opened (null). */
  private static void closeAll(AutoCloseable... parts) {
    for (AutoCloseable part : parts) {
      if (part != null) {
        try {
          part.close();
        } catch (Exception e) {
          log.warn("closing {} failed: {}", part.getClass().getSimpleName(), e.toString());
        }
      }
    }
  }

  private static void awaitWorkers(List<ChannelWorker> workers) {
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
