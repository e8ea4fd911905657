package org.albumstore.common.config;

import java.util.LinkedHashMap;
import java.util.Map;
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
          CommonSettings.JDBC_URL.variable()
              + " must start with jdbc:postgresql:, was '"
              + jdbcUrl
              + "'");
    }
  }

  public static DatabaseSettings from(Env env) {
    return new DatabaseSettings(
        CommonSettings.JDBC_URL.read(env),
        CommonSettings.DB_USER.read(env),
        CommonSettings.DB_PASSWORD.read(env));
  }

  /** These settings as {@code ALBUMSTORE_*} values, for a process or a context to read back. */
  public Map<String, String> asVariables() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(CommonSettings.JDBC_URL.variable(), jdbcUrl);
    m.put(CommonSettings.DB_USER.variable(), user);
    m.put(CommonSettings.DB_PASSWORD.variable(), password);
    return m;
  }

  /** Never prints the password. */
  @Override
  public String toString() {
    return "DatabaseSettings[jdbcUrl=" + jdbcUrl + ", user=" + user + "]";
  }
}
