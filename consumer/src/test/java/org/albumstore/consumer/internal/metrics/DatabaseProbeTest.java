package org.albumstore.consumer.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Readiness reads the last probe's answer; only the probe borrows, once per period. */
class DatabaseProbeTest {
  /** A pool whose connections are valid while {@code answering}, and which counts borrows. */
  private static final class FakePool implements DataSource {
    final AtomicBoolean answering = new AtomicBoolean(true);
    final AtomicInteger borrows = new AtomicInteger();

    @Override
    public Connection getConnection() throws SQLException {
      borrows.incrementAndGet();
      if (!answering.get()) {
        throw new SQLTransientConnectionException("Connection is not available");
      }
      return (Connection)
          Proxy.newProxyInstance(
              Connection.class.getClassLoader(),
              new Class<?>[] {Connection.class},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "isValid" -> true;
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                  });
    }

    @Override
    public Connection getConnection(String user, String password) {
      throw new UnsupportedOperationException();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> iface) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
      return false;
    }
  }

  private final FakePool pool = new FakePool();

  @Test
  void readingTheAnswerNeverBorrows() {
    // A period far longer than the test: only the first probe runs.
    try (DatabaseProbe probe = DatabaseProbe.start(pool, 3_600_000)) {
      awaitBorrows(1);
      for (int i = 0; i < 100; i++) {
        probe.getAsBoolean();
      }
      assertThat(pool.borrows).hasValue(1);
    }
  }

  @Test
  void theAnswerFollowsTheDatabaseProbeByProbe() {
    try (DatabaseProbe probe = DatabaseProbe.start(pool, 3_600_000)) {
      awaitBorrows(1);
      probe.close(); // the first probe has ended; from here on this thread probes
      probe.probe();
      assertThat(probe.getAsBoolean()).isTrue();

      pool.answering.set(false);
      probe.probe();
      assertThat(probe.getAsBoolean()).isFalse();

      pool.answering.set(true);
      probe.probe();
      assertThat(probe.getAsBoolean()).isTrue();
    }
  }

  @Test
  void itProbesAgainEveryPeriod() {
    try (DatabaseProbe probe = DatabaseProbe.start(pool, 10)) {
      awaitBorrows(3);
      assertThat(probe.getAsBoolean()).isTrue();
    }
  }

  private void awaitBorrows(int n) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (pool.borrows.get() < n) {
      assertThat(System.nanoTime()).as("%d probes within 10 s", n).isLessThan(deadline);
      Thread.onSpinWait();
    }
  }
}
