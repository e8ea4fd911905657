package org.albumstore.consumer.internal.ledger;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.albumstore.consumer.LedgerRetention;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the exactly-once ledger bounded: deletes the {@code applied_reviews} rows older than the
 * {@link LedgerRetention} window, in the background, in small paced batches.
 *
 * <p>Why a background delete and not a time-partitioned ledger whose old partitions are dropped: a
 * partitioned table's unique keys must contain the partition key, so the ledger's key would become
 * {@code (event_id, applied_at)} and {@code ON CONFLICT (event_id)} could no longer find a
 * duplicate applied at another time: the guarantee itself would go. The delete keeps the table and
 * its primary key as they are, and the write path unchanged.
 *
 * <p>Why it does not hurt the write path: each batch is its own short autocommitted statement of at
 * most {@link #BATCH_ROWS} rows that nothing else writes (ledger rows are inserted, never updated;
 * an expired ID is not being inserted again), found through the BRIN index on {@code applied_at}; a
 * pause between batches leaves the disk to the writers when a backlog is being caught up. It runs
 * on its own connection, never one the workers need.
 *
 * <p>One instance at a time: a run first takes a session-level {@code pg_try_advisory_lock}; the
 * other consumers find it taken and skip that run. Two pruners would not be wrong (a row is deleted
 * once), only twice the load. The lock goes with the connection, so a consumer that dies while
 * pruning frees it.
 */
public final class LedgerPruner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LedgerPruner.class);

  /** The advisory lock's key: "ALBUMLED" in ASCII, unlikely to clash with another application's. */
  public static final long LOCK_KEY = 0x414c42554d4c4544L;

  static final int BATCH_ROWS = 5_000;
  static final long PAUSE_MILLIS = 20;

  static final String TRY_LOCK = "SELECT pg_try_advisory_lock(?)";
  static final String UNLOCK = "SELECT pg_advisory_unlock(?)";

  /** ctid: the cheapest way back to the rows the subquery found (ledger rows never move). */
  static final String DELETE_EXPIRED =
      "DELETE FROM applied_reviews WHERE ctid = ANY(ARRAY("
          + "SELECT ctid FROM applied_reviews"
          + " WHERE applied_at < now() - make_interval(secs => ?) LIMIT ?))";

  static final String PRUNED = "albumstore.consumer.ledger.pruned";
  static final String PRUNED_AT = "albumstore.consumer.ledger.pruned.timestamp";
  static final String WINDOW = "albumstore.consumer.ledger.retention";

  /** What one run did. */
  public record Run(boolean locked, long deleted) {}

  private final HikariDataSource pool;
  private final LedgerRetention retention;
  private final LongAdder deleted = new LongAdder();

  /** Wall-clock millis of the last run that held the lock and finished; at first, the start. */
  private final AtomicLong prunedAtMillis = new AtomicLong(System.currentTimeMillis());

  private final AtomicBoolean closed = new AtomicBoolean();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "albumstore-consumer-ledger-pruner");
            t.setDaemon(true); // close() stops it; daemon so a forgotten close cannot hang a JVM
            return t;
          });

  /**
   * @param pool a pool of its own (one connection suffices); this pruner does not close it
   */
  public LedgerPruner(HikariDataSource pool, LedgerRetention retention) {
    this.pool = pool;
    this.retention = retention;
  }

  /** Runs every {@link LedgerRetention#period()}, the first time one period from now. */
  public void start() {
    long period = retention.period().toMillis();
    timer.scheduleWithFixedDelay(this::runQuietly, period, period, TimeUnit.MILLISECONDS);
    log.info("{}: expired ledger rows are deleted every {} ms", retention, period);
  }

  /**
   * Counts the rows deleted, as {@code albumstore_consumer_ledger_pruned_total}; and shows how far
   * behind the pruning may be: {@code albumstore_consumer_ledger_pruned_timestamp_seconds}, when
   * this instance last finished a run (its start until then), and {@code
   * albumstore_consumer_ledger_retention_seconds}, the window. A finished run leaves no row older
   * than the window, so no row is older than the window plus the time since the latest run of any
   * instance: what the {@code LedgerRetentionBehind} alert watches.
   */
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder(PRUNED, deleted, LongAdder::sum)
        .description("Exactly-once ledger rows deleted once older than the retention window")
        .register(registry);
    Gauge.builder(PRUNED_AT, prunedAtMillis, millis -> millis.get() / 1000.0)
        .description("When this consumer last finished pruning the ledger (its start until then)")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder(WINDOW, retention, r -> r.window().toSeconds())
        .description("How long the exactly-once ledger keeps an applied ID")
        .baseUnit("seconds")
        .register(registry);
  }

  private void runQuietly() {
    try {
      Run run = pruneOnce();
      if (run.deleted() > 0) {
        log.info("deleted {} ledger rows older than {} s", run.deleted(), seconds());
      }
    } catch (SQLException | RuntimeException e) {
      // The next run tries again; the ledger only grows meanwhile, the guarantee is unaffected.
      log.warn("pruning the ledger failed, retrying in {}: {}", retention.period(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Deletes every expired row, batch by batch, unless another instance holds the lock.
   *
   * @return whether this instance held the lock, and how many rows it deleted
   */
  public Run pruneOnce() throws SQLException, InterruptedException {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(true);
      if (!tryLock(c)) {
        log.debug("another consumer is pruning the ledger; skipping this run");
        return new Run(false, 0);
      }
      long total = 0;
      try (PreparedStatement delete = c.prepareStatement(DELETE_EXPIRED)) {
        delete.setDouble(1, seconds());
        delete.setInt(2, BATCH_ROWS);
        int n;
        do {
          n = delete.executeUpdate();
          total += n;
          deleted.add(n);
          if (n == BATCH_ROWS) {
            Thread.sleep(PAUSE_MILLIS);
          }
        } while (n == BATCH_ROWS && !closed.get());
      } finally {
        unlock(c);
      }
      if (!closed.get()) {
        prunedAtMillis.set(System.currentTimeMillis());
      }
      return new Run(true, total);
    }
  }

  private double seconds() {
    return retention.window().toSeconds();
  }

  private static boolean tryLock(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(TRY_LOCK)) {
      return lockResult(ps);
    }
  }

  private static boolean releaseLock(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(UNLOCK)) {
      return lockResult(ps);
    }
  }

  private static boolean lockResult(PreparedStatement ps) throws SQLException {
    ps.setLong(1, LOCK_KEY);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() && rs.getBoolean(1);
    }
  }

  /** A connection that may still hold the lock must not go back to the pool: evicted instead. */
  private void unlock(Connection c) {
    try {
      if (releaseLock(c)) {
        return;
      }
      log.warn("the ledger lock was not held at unlock; discarding the connection");
    } catch (SQLException | RuntimeException e) {
      log.warn("releasing the ledger lock failed, discarding the connection: {}", e.toString());
    }
    pool.evictConnection(c);
  }

  /** Stops the timer; a run in progress ends after its current batch. */
  @Override
  public void close() {
    closed.set(true);
    timer.shutdown();
    try {
      if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
        timer.shutdownNow();
      }
    } catch (InterruptedException e) {
      timer.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
