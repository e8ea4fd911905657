package org.albumstore.common.db;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Applies {@code schema.sql} (the copy at the repository root is packaged into this module's jar).
 * The script is written to be safe to apply twice, so calling this at every start-up is harmless.
 */
public final class Schema {
  public static final String RESOURCE = "/schema.sql";

  private Schema() {}

  public static String sql() {
    try (InputStream in = Schema.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  public static void apply(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      // The PostgreSQL driver runs a multi-statement script in one simple-query round trip.
      st.execute(sql());
    }
  }
}
