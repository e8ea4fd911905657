package org.albumstore.consumer.internal.metrics;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

/**
 * Whether the database answers, for readiness: a connection of the probe's own pool (one
 * connection, never the workers') borrowed and validated every {@code periodMillis} on a thread of
 * its own, the last answer kept in a volatile field that {@link #getAsBoolean} reads.
 *
 * <p>Why not a borrow per check: {@code GET /health} and the {@code ready} gauge of every {@code
 * GET /metrics} read readiness, and neither may wait for the pool it reports on (with every
 * connection held by a stuck query, a borrow waits out the pool's 5 s timeout and holds an HTTP
 * thread meanwhile), nor take a connection from the workers. The server's metrics gauge keeps away
 * from its pool for the same reason. Here a probe still borrows, so the answer stays true when the
 * database is cut off while nothing writes, but once per period, whatever the scrapes.
 *
 * <p>The answer is at most one period plus one probe old (a probe takes at most the pool's 5 s
 * borrow timeout plus the 2 s validation); until the first probe ends it is false.
 */
public final class DatabaseProbe implements BooleanSupplier, AutoCloseable {
  /** How often the probe borrows: fresher than any balancer's or scraper's interval needs. */
  public static final long PERIOD_MILLIS = 2_000;

  private static final int VALID_SECONDS = 2;

  private final DataSource pool;
  private final ScheduledExecutorService timer;

  /** The last probe's answer; written by the probe's thread only. */
  private volatile boolean up;

  private DatabaseProbe(DataSource pool) {
    this.pool = pool;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "albumstore-consumer-database-probe");
              t.setDaemon(true); // close() stops it; daemon so a forgotten close cannot hang a JVM
              return t;
            });
  }

  /** Starts probing {@code pool} now and every {@code periodMillis} after each probe ends. */
  public static DatabaseProbe start(DataSource pool, long periodMillis) {
    DatabaseProbe probe = new DatabaseProbe(pool);
    probe.timer.scheduleWithFixedDelay(probe::probe, 0, periodMillis, TimeUnit.MILLISECONDS);
    return probe;
  }

  /** Whether the last probe found the database answering; never waits. */
  @Override
  public boolean getAsBoolean() {
    return up;
  }

  /** One borrow and validation; a failure of any kind is an answer (false), never an exception. */
  void probe() {
    try (Connection c = pool.getConnection()) {
      up = c.isValid(VALID_SECONDS);
    } catch (SQLException | RuntimeException e) {
      up = false;
    }
  }

  /**
   * Stops the probing, interrupting a probe in progress, and waits for it at most 2 s. Called just
   * before the pool closes, which ends a validation still waiting on a cut-off connection.
   */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
