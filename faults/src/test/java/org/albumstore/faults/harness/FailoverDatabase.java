package org.albumstore.faults.harness;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.embedded.cluster.HaProxy;
import org.albumstore.embedded.cluster.ReplicatedPostgres;
import org.albumstore.embedded.cluster.ReplicatedPostgres.Replication;
import org.albumstore.embedded.testing.ExternalTools;

/**
 * PostgreSQL as RDS Multi-AZ serves it: a primary and a standby of the installed PostgreSQL ({@link
 * ReplicatedPostgres}) behind one address that the failover switches (HAProxy, {@link
 * HaProxy#startDatabase}), with the schema applied. What the servers, the consumers and the audit
 * are given is {@link #settings()}: the address, never a node.
 */
public final class FailoverDatabase implements AutoCloseable {
  private static final Duration LIMIT = Duration.ofSeconds(30);

  private final ReplicatedPostgres postgres;
  private final HaProxy endpoint;

  private FailoverDatabase(ReplicatedPostgres postgres, HaProxy endpoint) {
    this.postgres = postgres;
    this.endpoint = endpoint;
  }

  /**
   * Skips {@code purpose} (fails it with {@code CI=true}) unless PostgreSQL and HAProxy are here.
   */
  public static void require(String purpose) {
    ExternalTools tools = ExternalTools.system();
    tools.requireThat(
        ReplicatedPostgres.installation().isPresent(),
        "PostgreSQL's server programs (apt-get install postgresql)",
        purpose);
    tools.requireThat(
        HaProxy.executable().isPresent(), "HAProxy (apt-get install haproxy)", purpose);
  }

  /** Starts both nodes and the endpoint (its files in {@code dir}) and applies the schema. */
  public static FailoverDatabase start(Replication replication, Path dir) throws Exception {
    ReplicatedPostgres postgres = ReplicatedPostgres.start(replication);
    HaProxy endpoint;
    try {
      endpoint = HaProxy.startDatabase(dir, postgres.ports());
    } catch (Exception e) {
      postgres.close();
      throw e;
    }
    FailoverDatabase db = new FailoverDatabase(postgres, endpoint);
    try (var pool = Databases.pool(db.settings(), "faults-schema", 1)) {
      Schema.apply(pool);
    } catch (SQLException | RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  /** The endpoint: database {@value ReplicatedPostgres#DATABASE} wherever the primary is. */
  public DatabaseSettings settings() {
    return ReplicatedPostgres.settings(endpoint.databasePort(), ReplicatedPostgres.DATABASE);
  }

  public ReplicatedPostgres postgres() {
    return postgres;
  }

  /**
   * The primary crashes, the standby is promoted, the endpoint switched to it, as RDS does; returns
   * the milliseconds from the crash to the switch.
   */
  public long failover() throws Exception {
    long t0 = System.nanoTime();
    postgres.crashPrimary();
    endpoint.awaitDatabaseState(HaProxy.databaseServer(postgres.primary()), "DOWN", LIMIT);
    postgres.promoteStandby();
    endpoint.switchDatabaseTo(postgres.primary(), LIMIT);
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /** A new standby in the crashed node's place, ready for the next failover; repeatable. */
  public void rebuildStandby() throws Exception {
    postgres.rebuildStandby();
  }

  @Override
  public void close() throws Exception {
    try {
      endpoint.close();
    } finally {
      postgres.close();
    }
  }
}
