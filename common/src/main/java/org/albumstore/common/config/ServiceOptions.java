package org.albumstore.common.config;

import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The broker and database flags that the server and the consumer share, as a picocli mixin: one
 * declaration, one help text, one mapping to the {@code ALBUMSTORE_*} variable each flag overrides.
 *
 * <p>A flag not given stays null, so the environment still applies and a password taken from the
 * environment is never shown by {@code --help}. picocli is an optional dependency of common: only
 * the command-line launchers load this class.
 */
public final class ServiceOptions {
  /**
   * {@link Defaults#AMQP_URI} with '%' doubled: picocli runs descriptions through String.format,
   * and an annotation needs a constant. ServiceOptionsTest checks the two stay equal.
   */
  static final String AMQP_URI_IN_HELP = "amqp://guest:guest@127.0.0.1:5672/%%2F";

  @Option(
      names = "--amqp-uri",
      paramLabel = "URI",
      description =
          "Broker URI, amqp:// or amqps:// (TLS), with credentials and vhost (env "
              + Keys.AMQP_URI
              + "). Default: "
              + AMQP_URI_IN_HELP)
  String amqpUri;

  @Option(
      names = "--amqp-addresses",
      paramLabel = "HOST:PORT,...",
      description =
          "Broker nodes to connect to, comma-separated, in place of the URI's host and port (a"
              + " cluster without one endpoint); credentials, vhost and TLS stay the URI's; none ="
              + " the URI's host and port (env "
              + Keys.AMQP_ADDRESSES
              + "). Default: none")
  String amqpAddresses;

  @Option(
      names = "--queue",
      paramLabel = "NAME",
      description =
          "Durable queue (and exchange) of the writes (env "
              + Keys.QUEUE
              + "). Default: "
              + Defaults.QUEUE)
  String queue;

  @Option(
      names = "--queue-type",
      paramLabel = "classic|quorum",
      description =
          "Queue type used when declaring the queue (env "
              + Keys.QUEUE_TYPE
              + "). Default: "
              + Defaults.QUEUE_TYPE)
  String queueType;

  @Option(
      names = "--quorum-group-size",
      paramLabel = "N",
      description =
          "Replicas of a new quorum queue, e.g. 3 on a 3-node cluster; 0 = the broker's default."
              + " An existing queue must be declared as it was created (env "
              + Keys.QUORUM_GROUP_SIZE
              + "). Default: "
              + Defaults.QUORUM_GROUP_SIZE)
  Integer quorumGroupSize;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description =
          "PostgreSQL JDBC URL (env " + Keys.JDBC_URL + "). Default: " + Defaults.JDBC_URL)
  String jdbcUrl;

  @Option(
      names = "--db-user",
      paramLabel = "USER",
      description = "Database user (env " + Keys.DB_USER + "). Default: " + Defaults.DB_USER)
  String dbUser;

  @Option(
      names = "--db-password",
      paramLabel = "PASSWORD",
      description =
          "Database password; prefer the env variable "
              + Keys.DB_PASSWORD
              + " (flags show in ps). Default: empty")
  String dbPassword;

  /** Puts the flags that were given into {@code overrides}, under their variable names. */
  public void putGiven(Map<String, String> overrides) {
    putIfGiven(overrides, Keys.AMQP_URI, amqpUri);
    putIfGiven(overrides, Keys.AMQP_ADDRESSES, amqpAddresses);
    putIfGiven(overrides, Keys.QUEUE, queue);
    putIfGiven(overrides, Keys.QUEUE_TYPE, queueType);
    putIfGiven(overrides, Keys.QUORUM_GROUP_SIZE, quorumGroupSize);
    putIfGiven(overrides, Keys.JDBC_URL, jdbcUrl);
    putIfGiven(overrides, Keys.DB_USER, dbUser);
    putIfGiven(overrides, Keys.DB_PASSWORD, dbPassword);
  }

  /** Puts {@code value} under {@code key} unless it is null (a flag not given). */
  public static void putIfGiven(Map<String, String> overrides, String key, Object value) {
    if (value != null) {
      overrides.put(key, value.toString());
    }
  }
}
