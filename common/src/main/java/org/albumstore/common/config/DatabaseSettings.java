package org.albumstore.common.config;

import java.util.Objects;

/**
 * How to reach PostgreSQL. TLS is chosen in the JDBC URL itself ({@code ?sslmode=verify-full}), as
 * the PostgreSQL driver documents, so RDS needs no extra setting here.
 */
public record DatabaseSettings(String jdbcUrl, String user, String password) {

  public DatabaseSettings {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          Keys.JDBC_URL + " must start with jdbc:postgresql:, was '" + jdbcUrl + "'");
    }
  }

  public static DatabaseSettings from(Env env) {
    return new DatabaseSettings(
        env.get(Keys.JDBC_URL, Defaults.JDBC_URL),
        env.get(Keys.DB_USER, Defaults.DB_USER),
        env.get(Keys.DB_PASSWORD, Defaults.DB_PASSWORD));
  }

  /** Never prints the password. */
  @Override
  public String toString() {
    return "DatabaseSettings[jdbcUrl=" + jdbcUrl + ", user=" + user + "]";
  }
}
