package org.albumstore.server;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.List;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.server.internal.metrics.ServerMetrics;
import org.albumstore.server.internal.publish.BrokerConnector;
import org.albumstore.server.internal.publish.ConfirmedPublisher;
import org.albumstore.server.internal.publish.PublisherSettings;
import org.albumstore.server.internal.read.AlbumReads;
import org.albumstore.server.internal.read.AlbumWaiters;
import org.albumstore.server.internal.read.CommitFeed;
import org.albumstore.server.internal.read.GroupReader;
import org.albumstore.server.internal.read.PostgresDriver;
import org.albumstore.server.internal.read.ReadCache;
import org.albumstore.server.internal.read.ReadThreads;
import org.albumstore.server.internal.web.Readiness;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resources the servlets share, opened once when the web application starts and closed in
 * reverse order, each with a bounded wait, when it stops: read pool and read cache, the read
 * threads of the queries that could not run on their request thread, broker connection, publisher,
 * the poller of the reads that wait for a new album, and the feed of the consumers' commit
 * announcements.
 *
 * <p>Neither the broker nor the database must be up for the server to start: writes and reads
 * answer 503 (and {@code /health} says which is down) until they are.
 */
final class ServerComponents implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ServerComponents.class);

  /** The read pool's name: its metrics label, and the prefix of its threads' names. */
  static final String READ_POOL = "albumstore-server-reads";

  /** The prefix of the read threads' names ({@link ReadThreads}). */
  static final String READ_THREADS = "albumstore-server-read-queries";

  /** The prefix of the reader threads' names ({@link GroupReader}). */
  static final String READERS = "albumstore-server-readers";

  /**
   * The prefix of the names of the threads amqp-client starts for the two broker connections (the
   * publisher's and the commit announcements'): their consumer work pools and heartbeats.
   */
  static final String AMQP_THREADS = "albumstore-server-amqp";

  /** Bounds the wait for the pool's threads to end; they normally end within a millisecond. */
  private static final Duration POOL_THREADS_EXIT = Duration.ofSeconds(5);

  private final ServerSettings settings;
  private final ServerMetrics metrics;
  private final HikariDataSource pool;
  private final PoolThreads poolThreads;
  private final BrokerConnector broker;
  private final ConfirmedPublisher publisher;
  private final AlbumReads reads;
  private final ReadThreads readThreads;
  private final PoolThreads readThreadNames;
  private final GroupReader group;
  private final PoolThreads readerNames;
  private final AlbumWaiters waiters;
  private final CommitFeed commits;
  private final PoolThreads amqpThreads;
  private final Readiness readiness = new Readiness();

  private ServerComponents(
      ServerSettings settings,
      ServerMetrics metrics,
      HikariDataSource pool,
      PoolThreads poolThreads,
      BrokerConnector broker,
      ConfirmedPublisher publisher,
      AlbumReads reads,
      ReadThreads readThreads,
      PoolThreads readThreadNames,
      GroupReader group,
      PoolThreads readerNames,
      AlbumWaiters waiters,
      CommitFeed commits,
      PoolThreads amqpThreads) {
    this.settings = settings;
    this.metrics = metrics;
    this.pool = pool;
    this.poolThreads = poolThreads;
    this.broker = broker;
    this.publisher = publisher;
    this.reads = reads;
    this.readThreads = readThreads;
    this.readThreadNames = readThreadNames;
    this.group = group;
    this.readerNames = readerNames;
    this.waiters = waiters;
    this.commits = commits;
    this.amqpThreads = amqpThreads;
    metrics.bindReady(this::takingWrites);
  }

  /**
   * Opens the read pool, the read threads, the waiting reads' poller, the broker connection and the
   * publisher; when one fails, closes those opened before and rethrows.
   */
  public static ServerComponents start(
      ServerSettings settings, AmqpSettings amqp, DatabaseSettings db) {
    PostgresDriver.register();
    ServerMetrics metrics = new ServerMetrics();
    PoolThreads poolThreads = new PoolThreads(READ_POOL);
    HikariDataSource pool = Databases.pool(db, READ_POOL, settings.dbPoolSize(), poolThreads);
    PoolThreads readThreadNames = new PoolThreads(READ_THREADS);
    ReadThreads readThreads =
        new ReadThreads(
            settings.readInlineMax(),
            settings.dbPoolSize(),
            settings.readQueueMax(),
            readThreadNames);
    PoolThreads readerNames = new PoolThreads(READERS);
    GroupReader group =
        new GroupReader(
            AlbumReads.source(pool),
            settings.readGroup().onPool(settings.dbPoolSize()),
            AlbumReads.WAIT_BOUND,
            settings.readQueueMax(),
            readerNames);
    PoolThreads amqpThreads = new PoolThreads(AMQP_THREADS);
    BrokerConnector broker = null;
    AlbumWaiters waiters = null;
    CommitFeed commits = null;
    try {
      metrics.bindPool(pool);
      metrics.bindReadThreads(readThreads);
      metrics.bindGroupReader(group);
      ReadCache cache = new ReadCache(settings.readCache());
      cache.bindTo(metrics.registry());
      AlbumReads reads = new AlbumReads(pool, cache, group);
      broker =
          new BrokerConnector(
              amqp,
              "albumstore-server",
              factory -> {
                metrics.bindAmqp(factory);
                factory.setThreadFactory(amqpThreads);
              });
      broker.start();
      waiters = startWaiters(reads, cache, settings, metrics);
      commits = new CommitFeed(amqp, cache, waiters, metrics.registry(), amqpThreads);
      commits.start();
      ConfirmedPublisher publisher = startPublisher(broker, settings, metrics);
      log.info("Server components started: {}, {}, {}", settings, amqp, db);
      return new ServerComponents(
          settings,
          metrics,
          pool,
          poolThreads,
          broker,
          publisher,
          reads,
          readThreads,
          readThreadNames,
          group,
          readerNames,
          waiters,
          commits,
          amqpThreads);
    } catch (RuntimeException e) {
      if (commits != null) {
        commits.close();
      }
      if (waiters != null) {
        waiters.close();
      }
      if (broker != null) {
        broker.close(Duration.ofSeconds(5));
      }
      awaitExit(amqpThreads);
      closeReadThreads(readThreads, readThreadNames);
      closeGroupReader(group, readerNames);
      closePool(pool, poolThreads);
      metrics.close();
      PostgresDriver.deregisterIfOwnedByThisApplication();
      throw e;
    }
  }

  /** The poller of the reads that wait for a new album, started and bound to the metrics. */
  private static AlbumWaiters startWaiters(
      AlbumReads reads, ReadCache cache, ServerSettings settings, ServerMetrics metrics) {
    AlbumWaiters waiters =
        new AlbumWaiters(
            reads::albums, cache::album, settings.readWait(), metrics.readWaitObserver());
    metrics.bindReadWaiters(waiters);
    waiters.start();
    return waiters;
  }

  /** The publisher threads on {@code broker}, started and bound to the metrics. */
  private static ConfirmedPublisher startPublisher(
      BrokerConnector broker, ServerSettings settings, ServerMetrics metrics) {
    ConfirmedPublisher publisher =
        new ConfirmedPublisher(
            broker,
            new PublisherSettings(
                settings.publishChannels(),
                settings.publishQueueMax(),
                settings.publishBundleMax(),
                settings.publishBundleBytes(),
                settings.confirmTimeoutMs(),
                settings.messageVersion()),
            metrics.publishObserver());
    metrics.bindPublisher(publisher);
    publisher.start();
    return publisher;
  }

  public ServerSettings settings() {
    return settings;
  }

  public ConfirmedPublisher publisher() {
    return publisher;
  }

  /** The meters behind {@code GET /metrics}. */
  public ServerMetrics metrics() {
    return metrics;
  }

  public AlbumReads reads() {
    return reads;
  }

  /** Where a GET's query waits when no read connection is free for it at once. */
  public ReadThreads readThreads() {
    return readThreads;
  }

  /** Where {@code GET /albums/{albumID}} waits for an acknowledged album. */
  public AlbumWaiters waiters() {
    return waiters;
  }

  /** Whether the server takes requests, and how many it is answering (see {@link Readiness}). */
  public Readiness readiness() {
    return readiness;
  }

  /**
   * The longest a stop waits for requests in flight: a write's own deadline (queue wait plus
   * confirm) plus a second; a request still open after that is answered 503 by the close.
   */
  public Duration inFlightWait() {
    return Duration.ofMillis(settings.confirmTimeoutMs() + 1000L);
  }

  public boolean brokerUp() {
    return broker.isUp();
  }

  public boolean databaseUp() {
    return reads.isUp();
  }

  /** What {@code GET /health} answers 200 for: broker and database up, not draining. */
  public boolean ready() {
    return readiness.ready() && brokerUp() && databaseUp();
  }

  /**
   * Not draining and connected to the broker: {@link #ready} without its database check, which
   * borrows a pooled connection. The metrics gauge reads this: a scrape must never wait for the
   * pool it reports on (with every connection held by a stuck query, it waited out the pool's
   * timeout and held a request thread meanwhile). A database that is down shows in the pool's own
   * metrics (connection timeouts) and in the reads' 503s.
   */
  public boolean takingWrites() {
    return readiness.ready() && brokerUp();
  }

  /** Closes the read threads and returns once they have ended (see {@link PoolThreads}). */
  private static void closeReadThreads(ReadThreads readThreads, PoolThreads threads) {
    readThreads.close();
    awaitExit(threads);
  }

  /** Closes the group reader and returns once its threads have ended. */
  private static void closeGroupReader(GroupReader group, PoolThreads threads) {
    group.close();
    awaitExit(threads);
  }

  /** Closes the pool and returns once its threads have ended (see {@link PoolThreads}). */
  private static void closePool(HikariDataSource pool, PoolThreads threads) {
    pool.close();
    awaitExit(threads);
  }

  private static void awaitExit(PoolThreads threads) {
    try {
      List<String> running = threads.awaitExit(POOL_THREADS_EXIT);
      if (!running.isEmpty()) {
        log.warn("{} still running {} after closing", running, POOL_THREADS_EXIT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The commit announcements first, then the waiting reads (answered 503, their poller stopped),
   * then the queued queries (answered 503, the read threads ended), then the group reader (what is
   * still queued answered 503, its threads ended), then the publisher (it drains what is queued
   * while the connection is still open), then the connection, then the pool; the connections' and
   * the pool's threads have ended when this returns.
   */
  @Override
  public void close() {
    try {
      try {
        try {
          try {
            commits.close();
          } finally {
            waiters.close();
          }
        } finally {
          try {
            closeReadThreads(readThreads, readThreadNames);
          } finally {
            closeGroupReader(group, readerNames);
          }
        }
      } finally {
        publisher.close(Duration.ofMillis(settings.confirmTimeoutMs() + 1000L));
      }
    } finally {
      try {
        broker.close(Duration.ofSeconds(5));
        awaitExit(amqpThreads); // both connections' threads, the commit feed's closed first
      } finally {
        closePool(pool, poolThreads);
        metrics.close();
        PostgresDriver.deregisterIfOwnedByThisApplication();
        log.info("Server components closed");
      }
    }
  }
}
