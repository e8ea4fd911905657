package org.albumstore.consumer;

import java.util.Locale;
import org.albumstore.common.config.Env;

/**
 * How the consumer reads the queue and writes the database: the knobs that trade latency, memory
 * and throughput. Every default lives here, once, as a compile-time constant so that {@code --help}
 * can state it. Measured with {@code bench/drain.sh 1000000 3} (results/drain/, 2-core machine,
 * 1M-message backlog): 1, 2, 4 and 8 connections x 2 channels drained 36.4k, 35.1k, 34.0k and 32.8k
 * msg/s, RabbitMQ's own consumer 40.3k. More workers split the broker's delivery rate into smaller
 * batches (more commits, more waits on each other's counter rows). The default is 2 connections,
 * not the 3.6% faster 1: with two, the consumer keeps applying while one connection recovers from a
 * broker or network fault. Prefetch 1000 and batches of 500 beat batches of 1000-2000 with fewer
 * workers in the earlier runs (one worker serialises decode, SQL, commit and ack).
 *
 * @param connections broker connections (M)
 * @param channelsPerConnection consuming channels per connection (K); each has its own worker
 *     thread and database connection, so M×K batches can be in flight at once
 * @param prefetch unacknowledged messages the broker may push to one channel
 * @param batchSize messages applied per database transaction; at most {@code prefetch}, since a
 *     channel never holds more unacknowledged messages than that
 * @param batchWaitMillis how long a partial batch waits for more messages before it is applied
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
    int dbPoolSize,
    boolean initSchema,
    int statsIntervalSeconds) {

  public static final String CONNECTIONS = "ALBUMSTORE_CONSUMER_CONNECTIONS";
  public static final String CHANNELS = "ALBUMSTORE_CONSUMER_CHANNELS";
  public static final String PREFETCH = "ALBUMSTORE_PREFETCH";
  public static final String BATCH_SIZE = "ALBUMSTORE_BATCH_SIZE";
  public static final String BATCH_WAIT_MS = "ALBUMSTORE_BATCH_WAIT_MS";
  public static final String DB_POOL_SIZE = "ALBUMSTORE_CONSUMER_DB_POOL_SIZE";
  public static final String INIT_SCHEMA = "ALBUMSTORE_INIT_SCHEMA";
  public static final String STATS_INTERVAL = "ALBUMSTORE_STATS_INTERVAL";

  public static final int DEFAULT_CONNECTIONS = 2;
  public static final int DEFAULT_CHANNELS = 2;
  public static final int DEFAULT_PREFETCH = 1000;
  public static final int DEFAULT_BATCH_SIZE = 500;
  public static final int DEFAULT_BATCH_WAIT_MS = 10;
  public static final boolean DEFAULT_INIT_SCHEMA = false;
  public static final int DEFAULT_STATS_INTERVAL = 10;

  static final int MAX_CONNECTIONS = 256;
  static final int MAX_CHANNELS = 256;

  /** AMQP's prefetch-count is an unsigned short. */
  static final int MAX_PREFETCH = 65_535;

  static final int MAX_BATCH_WAIT_MS = 60_000;
  static final int MAX_DB_POOL_SIZE = 1_000;
  static final int MAX_STATS_INTERVAL = 86_400;

  public ConsumerSettings {
    check(CONNECTIONS, connections, 1, MAX_CONNECTIONS);
    check(CHANNELS, channelsPerConnection, 1, MAX_CHANNELS);
    check(PREFETCH, prefetch, 1, MAX_PREFETCH);
    check(BATCH_SIZE, batchSize, 1, MAX_PREFETCH);
    if (batchSize > prefetch) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s (%d) must be at most %s (%d): a channel never holds more unacknowledged"
                  + " messages than its prefetch, so a larger batch could never fill",
              BATCH_SIZE,
              batchSize,
              PREFETCH,
              prefetch));
    }
    check(BATCH_WAIT_MS, batchWaitMillis, 0, MAX_BATCH_WAIT_MS);
    check(DB_POOL_SIZE, dbPoolSize, 1, MAX_DB_POOL_SIZE);
    check(STATS_INTERVAL, statsIntervalSeconds, 1, MAX_STATS_INTERVAL);
  }

  /** The defaults, with no environment at all. */
  public static ConsumerSettings defaults() {
    return from(Env.of(java.util.Map.of()));
  }

  public static ConsumerSettings from(Env env) {
    int connections = env.getInt(CONNECTIONS, DEFAULT_CONNECTIONS, 1, MAX_CONNECTIONS);
    int channels = env.getInt(CHANNELS, DEFAULT_CHANNELS, 1, MAX_CHANNELS);
    return new ConsumerSettings(
        connections,
        channels,
        env.getInt(PREFETCH, DEFAULT_PREFETCH, 1, MAX_PREFETCH),
        env.getInt(BATCH_SIZE, DEFAULT_BATCH_SIZE, 1, MAX_PREFETCH),
        env.getInt(BATCH_WAIT_MS, DEFAULT_BATCH_WAIT_MS, 0, MAX_BATCH_WAIT_MS),
        env.getInt(
            DB_POOL_SIZE, Math.min(connections * channels, MAX_DB_POOL_SIZE), 1, MAX_DB_POOL_SIZE),
        env.getBoolean(INIT_SCHEMA, DEFAULT_INIT_SCHEMA),
        env.getInt(STATS_INTERVAL, DEFAULT_STATS_INTERVAL, 1, MAX_STATS_INTERVAL));
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
