package org.albumstore.consumer;

import java.util.Locale;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;

/**
 * How the consumer reads the queue and writes the database: the knobs that trade latency, memory
 * and throughput. Each setting is declared here once ({@link Setting}: flag, variable, default,
 * range, help); {@code ConsumerMain} makes its flags of them. Measured with {@code bench/drain.sh
 * 1000000 3} (results/drain/, 2-core machine, 1M-message backlog): 1, 2, 4 and 8 connections x 2
 * channels drained 36.4k, 35.1k, 34.0k and 32.8k msg/s, RabbitMQ's own consumer 40.3k. More workers
 * split a backlog's delivery rate into smaller batches (more commits, more waits on each other's
 * counter rows); a steady flow goes to the highest-ranked worker alone (consumer priorities, see
 * {@code batch/ChannelWorker}). The default is 2 connections, not the 3.6% faster 1: with two, the
 * consumer keeps applying while one connection recovers from a broker or network fault. Prefetch
 * 1000 and batches of 500 beat batches of 1000-2000 with fewer workers in the earlier runs (one
 * worker serialises decode, SQL, commit and ack).
 *
 * @param connections broker connections (M)
 * @param channelsPerConnection consuming channels per connection (K); each has its own worker
 *     thread and database connection, so M×K batches can be in flight at once
 * @param prefetch unacknowledged messages the broker may push to one channel
 * @param batchSize messages applied per database transaction; at most {@code prefetch}, since a
 *     channel never holds more unacknowledged messages than that
 * @param batchWaitMillis how long a partial batch waits for more messages before it is applied; 0
 *     (the default): none, a free worker takes what has arrived and what arrives during its commit
 *     is the next batch ({@code batch/BatchInbox})
 * @param backlogWaitMillis how long a partial batch waits to fill while the queue holds a backlog
 *     (more ready messages than the workers take in one round of full batches); 0: never
 * @param dbPoolSize database connections; by default one per channel
 * @param initSchema apply {@code schema.sql} at start (it is idempotent)
 * @param statsIntervalSeconds period of the one-line rate log
 */
public record ConsumerSettings(
    int connections,
    int channelsPerConnection,
    int prefetch,
    int batchSize,
    int batchWaitMillis,
    int backlogWaitMillis,
    int dbPoolSize,
    boolean initSchema,
    int statsIntervalSeconds) {

  static final int MAX_CONNECTIONS = 256;
  static final int MAX_CHANNELS = 256;

  /** AMQP's prefetch-count is an unsigned short. */
  static final int MAX_PREFETCH = 65_535;

  static final int MAX_BATCH_WAIT_MS = 60_000;
  static final int MAX_DB_POOL_SIZE = 1_000;
  static final int MAX_STATS_INTERVAL = 86_400;

  public static final Setting<Integer> CONNECTIONS =
      Setting.integer("ALBUMSTORE_CONSUMER_CONNECTIONS", 2, 1, MAX_CONNECTIONS)
          .withFlag("--connections", "M")
          .withHelp("Broker connections");

  public static final Setting<Integer> CHANNELS =
      Setting.integer("ALBUMSTORE_CONSUMER_CHANNELS", 2, 1, MAX_CHANNELS)
          .withFlag("--channels", "K")
          .withHelp("Consuming channels per connection, each with its own worker thread");

  public static final Setting<Integer> PREFETCH =
      Setting.integer("ALBUMSTORE_PREFETCH", 1000, 1, MAX_PREFETCH)
          .withFlag("--prefetch", "N")
          .withHelp("Unacknowledged messages per channel (basic.qos)");

  public static final Setting<Integer> BATCH_SIZE =
      Setting.integer("ALBUMSTORE_BATCH_SIZE", 500, 1, MAX_PREFETCH)
          .withFlag("--batch-size", "N")
          .withHelp("Messages per database transaction, at most the prefetch");

  public static final Setting<Integer> BATCH_WAIT_MS =
      Setting.integer("ALBUMSTORE_BATCH_WAIT_MS", 0, 0, MAX_BATCH_WAIT_MS)
          .withFlag("--batch-wait-ms", "MS")
          .withHelp(
              "How long a partial batch waits for more messages; 0 = no wait: a free worker"
                  + " commits what has arrived, and what arrives meanwhile is the next batch");

  public static final Setting<Integer> BACKLOG_WAIT_MS =
      Setting.integer("ALBUMSTORE_BACKLOG_WAIT_MS", 10, 0, MAX_BATCH_WAIT_MS)
          .withFlag("--backlog-wait-ms", "MS")
          .withHelp(
              "While the queue holds more ready messages than the workers take in one round of"
                  + " full batches, how long a partial batch waits to fill; 0 = never");

  /** By default one connection per worker (connections x channels). */
  public static final Setting<Integer> DB_POOL_SIZE =
      Setting.integer(
              "ALBUMSTORE_CONSUMER_DB_POOL_SIZE", "connections x channels", 1, MAX_DB_POOL_SIZE)
          .withFlag("--db-pool-size", "N")
          .withHelp("Database connections");

  public static final Setting<Boolean> INIT_SCHEMA =
      Setting.bool("ALBUMSTORE_INIT_SCHEMA", false)
          .withFlag("--init-schema", "true|false")
          .withHelp("Apply schema.sql at start (idempotent)");

  public static final Setting<Integer> STATS_INTERVAL =
      Setting.integer("ALBUMSTORE_STATS_INTERVAL", 10, 1, MAX_STATS_INTERVAL)
          .withFlag("--stats-interval", "SECONDS")
          .withHelp("Period of the applied-rate log line");

  public ConsumerSettings {
    check(CONNECTIONS.variable(), connections, 1, MAX_CONNECTIONS);
    check(CHANNELS.variable(), channelsPerConnection, 1, MAX_CHANNELS);
    check(PREFETCH.variable(), prefetch, 1, MAX_PREFETCH);
    check(BATCH_SIZE.variable(), batchSize, 1, MAX_PREFETCH);
    if (batchSize > prefetch) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s (%d) must be at most %s (%d): a channel never holds more unacknowledged"
                  + " messages than its prefetch, so a larger batch could never fill",
              BATCH_SIZE.variable(),
              batchSize,
              PREFETCH.variable(),
              prefetch));
    }
    check(BATCH_WAIT_MS.variable(), batchWaitMillis, 0, MAX_BATCH_WAIT_MS);
    check(BACKLOG_WAIT_MS.variable(), backlogWaitMillis, 0, MAX_BATCH_WAIT_MS);
    check(DB_POOL_SIZE.variable(), dbPoolSize, 1, MAX_DB_POOL_SIZE);
    check(STATS_INTERVAL.variable(), statsIntervalSeconds, 1, MAX_STATS_INTERVAL);
  }

  /** The defaults, with no environment at all. */
  public static ConsumerSettings defaults() {
    return from(Env.of(java.util.Map.of()));
  }

  public static ConsumerSettings from(Env env) {
    int connections = CONNECTIONS.read(env);
    int channels = CHANNELS.read(env);
    Integer dbPoolSize = DB_POOL_SIZE.read(env);
    return new ConsumerSettings(
        connections,
        channels,
        PREFETCH.read(env),
        BATCH_SIZE.read(env),
        BATCH_WAIT_MS.read(env),
        BACKLOG_WAIT_MS.read(env),
        dbPoolSize != null ? dbPoolSize : Math.min(connections * channels, MAX_DB_POOL_SIZE),
        INIT_SCHEMA.read(env),
        STATS_INTERVAL.read(env));
  }

  /** Channels, worker threads and batches that can be in flight at once: M×K. */
  public int workers() {
    return connections * channelsPerConnection;
  }

  private static void check(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", was " + value);
    }
  }
}
