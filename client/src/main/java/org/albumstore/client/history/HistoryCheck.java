package org.albumstore.client.history;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.albumstore.client.internal.history.DatabaseState;
import org.albumstore.client.internal.history.HistoryChecker;
import org.albumstore.common.config.DatabaseSettings;

/**
 * Judges the history of a run directory: reads {@value HistoryFile#NAME}, the database's rows for
 * it, runs {@link HistoryChecker}, prints the verdict and keeps it beside the history as {@value
 * #VERDICT_FILE}. What both {@code check-history DIR} and the end of a {@code --history} run do.
 */
public final class HistoryCheck {
  public static final String VERDICT_FILE = "history-verdict.txt";

  private HistoryCheck() {}

  /**
   * @param db where to read the rows, or null to judge the reads only
   * @throws IOException the history is missing or not one
   * @throws SQLException the database could not be read
   */
  public static Verdict run(Path dir, DatabaseSettings db, PrintStream out)
      throws IOException, SQLException {
    History history = HistoryFile.read(dir.resolve(HistoryFile.NAME));
    DatabaseState state = null;
    if (db != null && history.isWhole()) {
      state = read(db, history);
    }
    Verdict verdict = HistoryChecker.check(history, state);
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    try (PrintStream p = new PrintStream(text, true, StandardCharsets.UTF_8)) {
      verdict.print(p);
    }
    Files.write(dir.resolve(VERDICT_FILE), text.toByteArray());
    out.print(text.toString(StandardCharsets.UTF_8));
    out.flush();
    return verdict;
  }

  /** One connection, read only, for the run's rows alone. */
  private static DatabaseState read(DatabaseSettings db, History history) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", db.user());
    p.setProperty("password", db.password());
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), p)) {
      c.setReadOnly(true);
      HistoryChecker.Rows rows = HistoryChecker.rowsToRead(history);
      return DatabaseState.read(c, rows.albumIds(), rows.eventIds());
    }
  }
}
