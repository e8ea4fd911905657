package org.albumstore.embedded.internal;

import java.net.URI;
import java.util.Objects;

/**
 * The host and port a broker URI or a JDBC URL points at: what "does it answer?" is asked about.
 *
 * <p>Only the first host of a multi-host JDBC URL is taken: it is the one the driver tries first.
 */
public record Endpoint(String host, int port) {
  static final int AMQP_PORT = 5672;
  static final int AMQPS_PORT = 5671;
  static final int POSTGRES_PORT = 5432;

  public Endpoint {
    Objects.requireNonNull(host, "host");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be 1 to 65535, was " + port);
    }
  }

  /** {@code amqp://user:pass@host:port/vhost}; the port defaults to 5672 (5671 for amqps). */
  public static Endpoint ofAmqpUri(String uri) {
    URI u = URI.create(uri);
    String host = u.getHost() == null || u.getHost().isEmpty() ? "localhost" : u.getHost();
    int defaultPort = "amqps".equalsIgnoreCase(u.getScheme()) ? AMQPS_PORT : AMQP_PORT;
    return new Endpoint(unbracket(host), u.getPort() == -1 ? defaultPort : u.getPort());
  }

  /**
   * {@code jdbc:postgresql://host:port/db?params}, {@code jdbc:postgresql://host1,host2/db} or
   * {@code jdbc:postgresql:db}; host defaults to localhost and port to 5432, as in the driver.
   */
  public static Endpoint ofJdbcUrl(String jdbcUrl) {
    String prefix = "jdbc:postgresql:";
    if (!jdbcUrl.startsWith(prefix)) {
      throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
    }
    String rest = jdbcUrl.substring(prefix.length());
    if (!rest.startsWith("//")) {
      return new Endpoint("localhost", POSTGRES_PORT);
    }
    String authority = rest.substring(2);
    int end = indexOfAny(authority, "/?");
    authority = end < 0 ? authority : authority.substring(0, end);
    String first = authority.split(",", -1)[0];
    if (first.isEmpty()) {
      return new Endpoint("localhost", POSTGRES_PORT);
    }
    int colon = first.lastIndexOf(':');
    boolean hasPort = colon > first.lastIndexOf(']'); // a colon inside [::1] is not a port
    String host = hasPort ? first.substring(0, colon) : first;
    int port = hasPort ? parsePort(first.substring(colon + 1), jdbcUrl) : POSTGRES_PORT;
    return new Endpoint(host.isEmpty() ? "localhost" : unbracket(host), port);
  }

  private static int parsePort(String s, String url) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad port '" + s + "' in " + url);
    }
  }

  private static int indexOfAny(String s, String chars) {
    for (int i = 0; i < s.length(); i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }

  private static String unbracket(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
