package org.albumstore.faults.harness;

import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.testing.TcpProxy;

/**
 * Where the broker and the database listen, and the same settings pointed at a {@link TcpProxy}
 * port instead: the component keeps its credentials, vhost, database and parameters.
 */
public final class Addresses {
  private static final Pattern JDBC =
      Pattern.compile("jdbc:postgresql://([^/:?]+)(?::(\\d+))?(/.*)", Pattern.DOTALL);

  private Addresses() {}

  /** host and port of a broker or database. */
  public record HostPort(String host, int port) {}

  public static HostPort of(AmqpSettings amqp) {
    URI u = URI.create(amqp.uri());
    int port = u.getPort() > 0 ? u.getPort() : (amqp.tls() ? 5671 : 5672);
    return new HostPort(u.getHost(), port);
  }

  public static HostPort of(DatabaseSettings db) {
    Matcher m = jdbc(db.jdbcUrl());
    return new HostPort(m.group(1), m.group(2) == null ? 5432 : Integer.parseInt(m.group(2)));
  }

  public static AmqpSettings viaPort(AmqpSettings amqp, int port) {
    URI u = URI.create(amqp.uri());
    String authority = (u.getRawUserInfo() == null ? "" : u.getRawUserInfo() + "@") + "127.0.0.1";
    String rest = (u.getRawPath() == null ? "" : u.getRawPath());
    String query = u.getRawQuery() == null ? "" : "?" + u.getRawQuery();
    return new AmqpSettings(
            u.getScheme() + "://" + authority + ":" + port + rest + query,
            amqp.queue(),
            amqp.queueType())
        .withPartitions(amqp.partitions());
  }

  public static DatabaseSettings viaPort(DatabaseSettings db, int port) {
    Matcher m = jdbc(db.jdbcUrl());
    return new DatabaseSettings(
        "jdbc:postgresql://127.0.0.1:" + port + m.group(3), db.user(), db.password());
  }

  private static Matcher jdbc(String url) {
    Matcher m = JDBC.matcher(url);
    if (!m.matches()) {
      throw new IllegalArgumentException("expected jdbc:postgresql://host[:port]/db, was " + url);
    }
    return m;
  }
}
