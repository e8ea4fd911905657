package org.albumstore.faults.planted;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.sql.DataSource;
import org.albumstore.common.event.CommittedWrites;
import org.albumstore.consumer.sql.Aggregate;
import org.albumstore.consumer.sql.AggregateWriter;
import org.albumstore.consumer.sql.BatchWriter;
import org.albumstore.consumer.sql.WriteResult;
import org.slf4j.LoggerFactory;

/**
 * Bugs planted on purpose in a consumer, each around the real {@link BatchWriter} through the
 * consumer's writer seam ({@link AggregateWriter}), to prove that the nemesis and the history
 * checker catch them. Each is a bug whose window only a real load opens, which a quiet run would
 * not show. Run by {@link PlantedConsumerMain} in a process of its own, as the real consumer is;
 * nothing here is on the consumer jar's classpath.
 *
 * <p>Uses only the consumer jar's classes (and slf4j, which it carries): the process's classpath is
 * that jar and this module's test classes.
 */
public enum PlantedBug {
  /**
   * Every transaction runs {@code SET LOCAL synchronous_commit = off}: a commit returns before its
   * WAL is flushed (or sent to the synchronous standby), the consumer acknowledges its messages,
   * and a primary that crashes before the WAL writer's next flush takes those commits with it.
   * Under a light load the WAL writer flushes each commit at once; under load it lags, and a
   * failover then loses acknowledged writes.
   */
  ASYNC_COMMIT("commits with synchronous_commit = off") {
    @Override
    public AggregateWriter.Factory writers() {
      return pool -> new BatchWriter(asyncCommitting(pool));
    }
  },

  /**
   * The batch is handed to a thread of its own to be committed, and the writer returns at once: the
   * consumer acknowledges messages whose transaction has not run yet. A kill loses what is queued
   * on that thread, and a failed commit (a failover) is only logged. Under a light load the queue
   * is empty nearly always; under load it holds batches.
   */
  ACK_BEFORE_COMMIT("acknowledges before it commits") {
    @Override
    public AggregateWriter.Factory writers() {
      return pool -> {
        BatchWriter real = new BatchWriter(pool);
        ExecutorService later =
            Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "planted-commit-later");
                  t.setDaemon(true);
                  return t;
                });
        return batch -> {
          later.execute(
              () -> {
                try {
                  real.write(batch);
                } catch (SQLException | RuntimeException e) {
                  LoggerFactory.getLogger(PlantedBug.class)
                      .warn(
                          "planted: a batch acknowledged before its commit failed: {}",
                          e.toString());
                }
              });
          return nothingCommitted(batch);
        };
      };
    }
  },

  /**
   * A failed batch of {@value #LARGE_BATCH} messages or more is taken as done: the failure is
   * logged and the whole batch acknowledged, although nothing of it committed. Smaller batches are
   * retried as they must be. Only load makes batches that large, so a quiet run never shows it; a
   * database failover under load then loses the batch in hand.
   */
  LARGE_FAILED_BATCH_ACKED("acknowledges a large batch whose commit failed") {
    @Override
    public AggregateWriter.Factory writers() {
      return pool -> {
        BatchWriter real = new BatchWriter(pool);
        return batch -> {
          try {
            return real.write(batch);
          } catch (SQLException e) {
            if (batch.messageCount() < LARGE_BATCH) {
              throw e;
            }
            LoggerFactory.getLogger(PlantedBug.class)
                .warn(
                    "planted: a batch of {} messages failed and is acknowledged: {}",
                    batch.messageCount(),
                    e.toString());
            return nothingCommitted(batch);
          }
        };
      };
    }
  };

  /** Where {@link #LARGE_FAILED_BATCH_ACKED} starts to take a failure for done. */
  public static final int LARGE_BATCH = 20;

  private final String description;

  PlantedBug(String description) {
    this.description = description;
  }

  /** What the consumer's writer seam is given instead of {@code BatchWriter::new}. */
  public abstract AggregateWriter.Factory writers();

  public String description() {
    return description;
  }

  /** What a writer returns for a batch it pretends to have committed. */
  private static WriteResult nothingCommitted(Aggregate batch) {
    return new WriteResult(
        batch.messageCount(), 0, new CommittedWrites(List.of(), List.of()), 0, 0);
  }

  /**
   * {@code pool}, whose connections run {@code SET LOCAL synchronous_commit = off} in each
   * transaction, right after {@code setAutoCommit(false)} begins it.
   */
  private static DataSource asyncCommitting(DataSource pool) {
    return proxy(
        DataSource.class,
        pool,
        (target, method, result, args) ->
            result instanceof Connection c
                ? proxy(Connection.class, c, PlantedBug::commitAsynchronously)
                : result);
  }

  private static Object commitAsynchronously(
      Connection c, Method method, Object result, Object[] args) throws SQLException {
    if (method.getName().equals("setAutoCommit") && Boolean.FALSE.equals(args[0])) {
      try (Statement s = c.createStatement()) {
        s.execute("SET LOCAL synchronous_commit = off");
      }
    }
    return result;
  }

  /** What a proxy does after each call it passed on, with the call's result. */
  @FunctionalInterface
  private interface After<T> {
    Object apply(T target, Method method, Object result, Object[] args) throws SQLException;
  }

  /** A proxy of {@code target} that passes every call on, then applies {@code after}. */
  private static <T> T proxy(Class<T> type, T target, After<T> after) {
    InvocationHandler handler =
        (self, method, args) -> {
          Object result;
          try {
            result = method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          return after.apply(target, method, result, args);
        };
    return type.cast(
        Proxy.newProxyInstance(PlantedBug.class.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
