package org.albumstore.embedded.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * PostgreSQL's view of lock waits, for tests that stage requests on a lock a test session holds:
 * the holder's backend PID, and how many other sessions its locks keep waiting.
 */
public final class Locks {
  private Locks() {}

  /** The backend PID of the session behind {@code c}. */
  public static int backendPid(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_backend_pid()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /**
   * Sessions waiting for a lock that the session {@code pid} holds, asked on a connection of {@code
   * db}.
   */
  public static int waitingOn(DataSource db, int pid) throws SQLException {
    try (Connection c = db.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))")) {
      ps.setInt(1, pid);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
