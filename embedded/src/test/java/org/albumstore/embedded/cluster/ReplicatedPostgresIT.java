package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.cluster.ReplicatedPostgres.Replication;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failover of the installed PostgreSQL behind HAProxy, the pieces the faults module's failover
 * test stands on, each checked on its own: through the balancer's one address, a row committed on a
 * synchronous primary is on the promoted standby; a row committed on an asynchronous primary whose
 * standby had stopped receiving is not (what the audit of a failover must then catch); between the
 * crash and the switch to the promoted standby, the address answers nothing.
 */
class ReplicatedPostgresIT {
  private static final Duration LIMIT = Duration.ofSeconds(30);

  @BeforeAll
  static void needsPostgresAndHaProxy() {
    ExternalTools tools = ExternalTools.system();
    String purpose = "the PostgreSQL failover tests";
    tools.requireThat(
        ReplicatedPostgres.installation().isPresent(),
        "PostgreSQL's server programs (apt-get install postgresql)",
        purpose);
    tools.requireThat(
        HaProxy.executable().isPresent(), "HAProxy (apt-get install haproxy)", purpose);
  }

  @Test
  void aCommitOnASynchronousPrimaryIsOnThePromotedStandbyAcrossTwoFailovers(@TempDir Path dir)
      throws Exception {
    try (ReplicatedPostgres pg = ReplicatedPostgres.start(Replication.SYNCHRONOUS);
        HaProxy balancer = HaProxy.startDatabase(dir, pg.ports())) {
      DatabaseSettings db = ReplicatedPostgres.settings(balancer.databasePort(), "albumstore");
      balancer.awaitDatabaseState(HaProxy.databaseServer(0), "UP", LIMIT);
      assertThat(balancer.databaseStates()).containsEntry(HaProxy.databaseServer(1), "MAINT");
      execute(db, "CREATE TABLE t (v int)");
      execute(db, "INSERT INTO t VALUES (1)");

      pg.crashPrimary();
      balancer.awaitDatabaseState(HaProxy.databaseServer(0), "DOWN", LIMIT);
      Throwable beforePromotion = catchThrowable(() -> count(db));
      pg.promoteStandby();
      balancer.switchDatabaseTo(pg.primary(), LIMIT);

      assertThat(beforePromotion).as("no server answers before the promotion").isNotNull();
      assertThat(pg.primary()).isEqualTo(1);
      assertThat(count(db)).as("the committed row, through the same address").isEqualTo(1);
      execute(db, "INSERT INTO t VALUES (2)");
      assertThat(count(db)).as("the promoted standby takes writes").isEqualTo(2);

      // The crashed slot becomes the new standby; the second failover comes back to it.
      pg.rebuildStandby();
      execute(db, "INSERT INTO t VALUES (3)");
      pg.crashPrimary();
      pg.promoteStandby();
      balancer.switchDatabaseTo(pg.primary(), LIMIT);

      assertThat(pg.primary()).isZero();
      assertThat(balancer.databaseStates()).containsEntry(HaProxy.databaseServer(1), "MAINT");
      assertThat(count(db)).as("every committed row, after two failovers").isEqualTo(3);
    }
  }

  @Test
  void aCommitTheAsynchronousStandbyDidNotReceiveIsLostByTheFailover(@TempDir Path dir)
      throws Exception {
    try (ReplicatedPostgres pg = ReplicatedPostgres.start(Replication.ASYNCHRONOUS);
        HaProxy balancer = HaProxy.startDatabase(dir, pg.ports())) {
      DatabaseSettings db = ReplicatedPostgres.settings(balancer.databasePort(), "albumstore");
      balancer.awaitDatabaseState(HaProxy.databaseServer(0), "UP", LIMIT);
      execute(db, "CREATE TABLE t (v int)");
      execute(db, "INSERT INTO t VALUES (1)");
      pg.awaitStandbyCaughtUp(); // the first row is on the standby
      pg.stopReplication();
      execute(db, "INSERT INTO t VALUES (2)"); // committed: the primary does not wait

      pg.crashPrimary();
      pg.promoteStandby();
      balancer.switchDatabaseTo(pg.primary(), LIMIT);

      assertThat(count(db))
          .as("the row streamed before the cut survives, the later one not")
          .isEqualTo(1);
    }
  }

  /**
   * {@code pg_ctl promote -w} returns before the promoted server takes sessions, and the gap widens
   * with the WAL it still has to replay: a promotion under a write load, repeated, proves that
   * {@link ReplicatedPostgres#promoteStandby()} returns only once the server takes writes.
   */
  @Test
  void aPromotionUnderAWriteLoadReturnsOnlyOnceThePromotedServerTakesWrites() throws Exception {
    try (ReplicatedPostgres pg = ReplicatedPostgres.start(Replication.ASYNCHRONOUS)) {
      execute(direct(pg), "CREATE TABLE t (v int, pad text)");
      for (int round = 0; round < PROMOTIONS_UNDER_LOAD; round++) {
        try (WriteLoad load = new WriteLoad(direct(pg))) {
          load.awaitRows(20_000, LIMIT);
          pg.crashPrimary();
        }
        pg.promoteStandby();
        execute(direct(pg), "INSERT INTO t VALUES (-1, 'right after the promotion')");
        pg.rebuildStandby();
      }
      assertThat(count(direct(pg))).as("rows on the last primary").isPositive();
    }
  }

  private static final int PROMOTIONS_UNDER_LOAD = 3;

  private static DatabaseSettings direct(ReplicatedPostgres pg) {
    return ReplicatedPostgres.settings(pg.ports().get(pg.primary()), "albumstore");
  }

  /**
   * Two sessions inserting wide rows as fast as they can, until closed or the primary dies. Bounded
   * by the crash that follows and by {@link #close()}'s wait.
   */
  private static final class WriteLoad implements AutoCloseable {
    private final ExecutorService writers = Executors.newFixedThreadPool(2);
    private final AtomicLong rows = new AtomicLong();
    private volatile boolean stop;

    WriteLoad(DatabaseSettings db) {
      for (int i = 0; i < 2; i++) {
        writers.submit(() -> write(db));
      }
    }

    private void write(DatabaseSettings db) {
      String sql = "INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, 2000) g";
      try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
          Statement st = c.createStatement()) {
        while (!stop) {
          rows.addAndGet(st.executeUpdate(sql));
        }
      } catch (SQLException e) {
        // the crash ends the load
      }
    }

    void awaitRows(long wanted, Duration limit) throws InterruptedException {
      long deadline = System.nanoTime() + limit.toNanos();
      while (rows.get() < wanted && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(rows.get()).as("rows written before the crash").isGreaterThanOrEqualTo(wanted);
    }

    @Override
    public void close() throws InterruptedException {
      stop = true;
      writers.shutdown();
      writers.awaitTermination(LIMIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  private static void execute(DatabaseSettings db, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static long count(DatabaseSettings db) throws SQLException {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
