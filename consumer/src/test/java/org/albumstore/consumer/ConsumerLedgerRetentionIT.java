package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.albumstore.common.db.Databases;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.consumer.internal.ledger.LedgerPruner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The ledger's retention against the real database (and broker): rows older than the window go,
 * younger ones stay, a redelivery inside the window still changes nothing, and a second consumer
 * does not prune while another one is.
 *
 * <p>The window is one hour and rows are backdated, so the test never waits for time to pass; it
 * runs on the shared test database, where pruning also removes other tests' rows older than an
 * hour, which no test reads.
 */
class ConsumerLedgerRetentionIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final LedgerRetention HOUR = new LedgerRetention(Duration.ofHours(1));

  private Fixture f;
  private HikariDataSource prunerPool;
  private LedgerPruner pruner;
  private AlbumStoreConsumer consumer;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    prunerPool = Databases.pool(f.db, "it-ledger-pruner", 1);
    pruner = new LedgerPruner(prunerPool, HOUR);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (consumer != null) {
      consumer.close();
    }
    pruner.close();
    prunerPool.close();
    f.close();
  }

  /** Inserts {@code count} fresh IDs applied {@code age} ago; returns them. */
  private List<UUID> ledgerRowsAged(int count, Duration age) throws Exception {
    List<UUID> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(UUID.randomUUID());
    }
    try (Connection c = f.reads().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO applied_reviews (event_id, applied_at)"
                    + " SELECT unnest(?::uuid[]), now() - make_interval(secs => ?)")) {
      ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
      ps.setDouble(2, age.toSeconds());
      assertThat(ps.executeUpdate()).isEqualTo(count);
    }
    return ids;
  }

  private void age(UUID id, Duration age) throws Exception {
    try (Connection c = f.reads().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE applied_reviews SET applied_at = now() - make_interval(secs => ?)"
                    + " WHERE event_id = ?")) {
      ps.setDouble(1, age.toSeconds());
      ps.setObject(2, id);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
  }

  private long ledgerRows(Collection<UUID> ids) throws Exception {
    try (Connection c = f.reads().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM applied_reviews WHERE event_id = ANY(?)")) {
      ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Prunes once, waiting out a run of another consumer's pruner if one happens to hold the lock.
   */
  private LedgerPruner.Run pruneHoldingTheLock() throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    LedgerPruner.Run run;
    do {
      run = pruner.pruneOnce();
    } while (!run.locked() && System.nanoTime() < deadline && sleep());
    assertThat(run.locked()).as("took the ledger lock").isTrue();
    return run;
  }

  private static boolean sleep() throws InterruptedException {
    Thread.sleep(100);
    return true;
  }

  @Test
  void rowsOlderThanTheWindowGoAndYoungerOnesStay() throws Exception {
    // More than two batches of expired rows, so that the batched loop runs to its end.
    List<UUID> expired = ledgerRowsAged(12_345, Duration.ofHours(2));
    List<UUID> barelyExpired = ledgerRowsAged(10, Duration.ofMinutes(61));
    List<UUID> young = ledgerRowsAged(1_000, Duration.ofMinutes(59));
    List<UUID> fresh = ledgerRowsAged(1_000, Duration.ZERO);

    LedgerPruner.Run run = pruneHoldingTheLock();

    assertThat(run.deleted()).isGreaterThanOrEqualTo(12_355);
    assertThat(ledgerRows(expired)).isZero();
    assertThat(ledgerRows(barelyExpired)).isZero();
    assertThat(ledgerRows(young)).isEqualTo(1_000);
    assertThat(ledgerRows(fresh)).isEqualTo(1_000);
    // Nothing left to do: a second run deletes none of the rows still inside the window.
    pruneHoldingTheLock();
    assertThat(ledgerRows(young)).isEqualTo(1_000);
    assertThat(ledgerRows(fresh)).isEqualTo(1_000);
  }

  @Test
  void aRedeliveryInsideTheWindowStillChangesNothingAfterPruning() throws Exception {
    consumer =
        AlbumStoreConsumer.start(
            AlbumStoreConsumer.Options.of(Fixture.settings(1, 1, 10, 10), f.amqp, f.db)
                .withRetention(HOUR));
    UUID keyedId = UUID.randomUUID();
    WriteBundle message =
        new WriteBundle(
            EventCodec.VERSION,
            System.currentTimeMillis(),
            UUID.randomUUID(),
            List.of(),
            List.of(
                new Review(keyedId, f.album(1), Vote.LIKE, true),
                new Review(UUID.randomUUID(), f.album(1), Vote.DISLIKE, false)));
    f.publish(message);
    await("applied", WAIT, () -> consumer.counters().messagesApplied() == 1);
    assertThat(f.counts(f.album(1))).containsExactly(1, 1);

    // 59 minutes later, just inside the window, the pruner has run...
    age(keyedId, Duration.ofMinutes(59));
    age(message.id(), Duration.ofMinutes(59));
    pruneHoldingTheLock();
    assertThat(ledgerRows(List.of(keyedId, message.id()))).isEqualTo(2);

    // ... and the same message arrives again: it changes nothing.
    f.publish(message);
    await("redelivery applied", WAIT, () -> consumer.counters().messagesApplied() == 2);
    assertThat(f.counts(f.album(1))).containsExactly(1, 1);
    assertThat(consumer.counters().reviewsApplied()).isEqualTo(2);
  }

  @Test
  void aSecondConsumerDoesNotPruneWhileAnotherHoldsTheLedgerLock() throws Exception {
    List<UUID> expired = ledgerRowsAged(100, Duration.ofHours(2));
    try (Connection other = f.reads().getConnection()) {
      // Another consumer's pruner, mid-run: it holds the session-level advisory lock.
      try (PreparedStatement lock = other.prepareStatement("SELECT pg_advisory_lock(?)")) {
        lock.setLong(1, LedgerPruner.LOCK_KEY);
        lock.execute();
      }
      try {
        LedgerPruner.Run skipped = pruner.pruneOnce();
        assertThat(skipped.locked()).isFalse();
        assertThat(skipped.deleted()).isZero();
        assertThat(ledgerRows(expired)).isEqualTo(100);
      } finally {
        try (PreparedStatement unlock = other.prepareStatement("SELECT pg_advisory_unlock(?)")) {
          unlock.setLong(1, LedgerPruner.LOCK_KEY);
          unlock.execute();
        }
      }
    }
    // Once the other run ends, this one prunes (and releases the lock for the next).
    pruneHoldingTheLock();
    assertThat(ledgerRows(expired)).isZero();
    try (Connection c = f.reads().getConnection();
        PreparedStatement held =
            c.prepareStatement(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                    + " AND ((classid::bigint << 32) | objid::bigint) = ?")) {
      held.setLong(1, LedgerPruner.LOCK_KEY);
      try (ResultSet rs = held.executeQuery()) {
        rs.next();
        assertThat(rs.getLong(1)).as("advisory lock released after the run").isZero();
      }
    }
  }
}
