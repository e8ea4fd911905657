package org.albumstore.embedded.internal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The database-name part of {@code jdbc:postgresql://host[:port]/database[?params]} URLs. */
public final class JdbcUrls {
  private static final Pattern URL =
      Pattern.compile("(jdbc:postgresql://[^/?]*/)([^?]*)(\\?.*)?", Pattern.DOTALL);
  private static final Pattern SECRET_PARAM =
      Pattern.compile("(?i)([?&](?:password|sslpassword)=)[^&]*");

  private JdbcUrls() {}

  /** The database the URL names. */
  public static String database(String jdbcUrl) {
    return match(jdbcUrl).group(2);
  }

  /** The same URL (host, port, parameters) naming another database. */
  public static String withDatabase(String jdbcUrl, String database) {
    Matcher m = match(jdbcUrl);
    return m.group(1) + database + (m.group(3) == null ? "" : m.group(3));
  }

  /** The URL with password parameters masked, for logs and messages. */
  public static String redact(String jdbcUrl) {
    return SECRET_PARAM.matcher(jdbcUrl).replaceAll("$1***");
  }

  private static Matcher match(String jdbcUrl) {
    Matcher m = URL.matcher(jdbcUrl);
    if (!m.matches() || m.group(2).isEmpty()) {
      throw new IllegalArgumentException(
          "expected jdbc:postgresql://host:port/database, was '" + redact(jdbcUrl) + "'");
    }
    return m;
  }
}
