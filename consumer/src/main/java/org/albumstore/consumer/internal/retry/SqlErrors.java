package org.albumstore.consumer.internal.retry;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;

/**
 * Decides what a failed batch means: retry it as it is, or look for the message that caused it.
 *
 * <p>Only failures caused by a message's <em>values</em> are poison: PostgreSQL's data exceptions
 * (class 22), integrity constraint violations (23) and program limits exceeded (54), plus non-SQL
 * runtime failures while binding the values. Everything else is treated as transient: the
 * documented transient states (connection exceptions class 08, {@code 57P01}–{@code 57P03}
 * shutdown, {@code 53300} too many connections, {@code 40001}/{@code 40P01} serialization failure
 * and deadlock, HikariCP's {@code SQLTransientConnectionException}), other resource and operator
 * states (53, 57, 58, 40, 55P03), and also errors that no message can cause, such as a missing
 * table (42P01) or a failed login (28P01). Retrying those stalls the consumer with one warning in
 * the log until an operator fixes the database, which beats dead-lettering every message.
 */
public final class SqlErrors {
  private SqlErrors() {}

  /**
   * True when the failure is caused by the values of one of the batch's messages; false when it is
   * transient: retrying the same batch later may succeed.
   */
  public static boolean isPoison(Throwable failure) {
    if (!(failure instanceof SQLException sql)) {
      // A bug or an unexpected value outside the driver: isolate the message that triggers it.
      return failure instanceof RuntimeException;
    }
    if (sql instanceof SQLTransientException || sql instanceof SQLRecoverableException) {
      return false;
    }
    String state = sqlState(sql);
    if (state == null || state.length() < 2) {
      return false;
    }
    return switch (state.substring(0, 2)) {
      case "22", "23", "54" -> true;
      default -> false;
    };
  }

  /** The SQLState of the failure or, if it has none, of the first cause that has one. */
  static String sqlState(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null) {
        return s.getSQLState();
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /** One line naming the state and the database's message, for logs and dead-letter reasons. */
  public static String describe(Throwable failure) {
    String state = failure instanceof SQLException s ? sqlState(s) : null;
    String message = String.valueOf(failure.getMessage()).lines().findFirst().orElse("");
    return state == null
        ? failure.getClass().getSimpleName() + ": " + message
        : "SQLState " + state + ": " + message;
  }
}
