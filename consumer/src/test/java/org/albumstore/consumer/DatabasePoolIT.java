package org.albumstore.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.db.Databases;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The pool the consumer and the server share ({@code Databases}) survives a first connection that
 * breaks while HikariCP sets it up, as one does when PostgreSQL fails over just then: the real
 * session is closed under HikariCP's feet when it asks for the default isolation level, and later
 * connections must still be made. (HikariCP 7.1 without an isolation configured keeps -1 after that
 * failure and refuses every later connection: "Transaction isolation level -1 not supported".)
 */
class DatabasePoolIT {

  @Test
  void aFirstConnectionThatBreaksDuringSetupDoesNotPoisonThePool() throws Exception {
    DatabaseSettings db = TestServices.database();
    HikariConfig config = Databases.config(db, "it-broken-first", 1, null);
    config.setDataSource(firstSessionClosedWhenAskedItsIsolation(db));
    try (HikariDataSource pool = new HikariDataSource(config);
        Connection c = pool.getConnection();
        ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(1);
    }
  }

  /**
   * The real driver against the real database; only its first session is closed just before {@code
   * getTransactionIsolation()} runs, which then fails as PgJDBC fails on a closed session.
   */
  private static PGSimpleDataSource firstSessionClosedWhenAskedItsIsolation(DatabaseSettings db)
      throws SQLException {
    AtomicBoolean first = new AtomicBoolean(true);
    PGSimpleDataSource real =
        new PGSimpleDataSource() {
          @Override
          public Connection getConnection(String user, String password) throws SQLException {
            Connection session = super.getConnection(user, password);
            return first.getAndSet(false) ? breaksWhenAskedItsIsolation(session) : session;
          }
        };
    real.setUrl(db.jdbcUrl());
    real.setUser(db.user());
    real.setPassword(db.password());
    return real;
  }

  private static Connection breaksWhenAskedItsIsolation(Connection session) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getTransactionIsolation")) {
                session.close(); // the server went away between the connect and this question
              }
              try {
                return method.invoke(session, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
