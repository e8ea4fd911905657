package org.albumstore.common.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.concurrent.ThreadFactory;
import org.albumstore.common.config.DatabaseSettings;

/** HikariCP pools configured the same way by the server (reads) and the consumer (writes). */
public final class Databases {
  private Databases() {}

  /**
   * A fixed-size pool. {@code initializationFailTimeout = -1} lets the pool start while PostgreSQL
   * is still down: callers retry (consumer) or answer 503 (server) rather than refuse to start.
   */
  public static HikariDataSource pool(DatabaseSettings s, String poolName, int size) {
    return pool(s, poolName, size, null);
  }

  /**
   * As {@link #pool(DatabaseSettings, String, int)}, with every thread of the pool made by {@code
   * threads} (HikariCP's own threads when {@code null}): the server's pool lives in a web
   * application, which must see its threads end before the container checks for leaks.
   */
  public static HikariDataSource pool(
      DatabaseSettings s, String poolName, int size, ThreadFactory threads) {
    return new HikariDataSource(config(s, poolName, size, threads));
  }

  /** The configuration of {@link #pool(DatabaseSettings, String, int, ThreadFactory)}. */
  public static HikariConfig config(
      DatabaseSettings s, String poolName, int size, ThreadFactory threads) {
    HikariConfig c = new HikariConfig();
    c.setThreadFactory(threads);
    c.setPoolName(poolName);
    c.setJdbcUrl(s.jdbcUrl());
    // Named explicitly because a stock Tomcat initialises java.sql.DriverManager before any web
    // application loads (JreMemoryLeakPreventionListener), so a driver inside WEB-INF/lib is never
    // registered there; HikariCP then instantiates the driver itself.
    c.setDriverClassName("org.postgresql.Driver");
    c.setUsername(s.user());
    c.setPassword(s.password());
    c.setMaximumPoolSize(size);
    c.setMinimumIdle(size);
    c.setConnectionTimeout(5_000);
    c.setValidationTimeout(2_000);
    c.setInitializationFailTimeout(-1);
    // PostgreSQL's default, named so that HikariCP never asks the server for it: when its first
    // connection breaks while it asks (a failover under way), HikariCP 7.1 keeps an isolation of -1
    // and fails every later connection's setup, so the pool stays empty for good (HikariCP issues
    // 1944 and 2269; seen in a nemesis run: a server's reads never came back).
    c.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    // Server-side prepared statements after the first use: the hot statements run thousands of
    // times per second.
    c.addDataSourceProperty("prepareThreshold", "1");
    c.addDataSourceProperty("ApplicationName", poolName);
    return c;
  }
}
