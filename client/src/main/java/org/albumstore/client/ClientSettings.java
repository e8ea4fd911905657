package org.albumstore.client;

import java.util.List;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;

/**
 * The load client's settings that may come from the environment, each declared once ({@link
 * Setting}: flag, variable, default, help): where the server, the broker's management API and the
 * metrics are. The client's command line derives its flags from {@link #DECLARED}; the local
 * launcher, which passes client flags through, names them from here too.
 *
 * <p>The options that only the command line sets (the load's shape) stay picocli annotations on
 * {@link ClientCommand}: they have no variable, so picocli's own declaration is the single one.
 */
public final class ClientSettings {
  /** The value that turns off an optional source (the management API, the broker, metrics). */
  public static final String OFF = "none";

  public static final Setting<String> URL =
      Setting.text(
              "ALBUMSTORE_CLIENT_URL",
              "http://127.0.0.1:"
                  + CommonSettings.HTTP_PORT.defaultValue()
                  + CommonSettings.CONTEXT_PATH)
          .withFlag("--url", "URL")
          .withHelp("Base URL of the server");

  public static final Setting<String> RMQ_API =
      CommonSettings.RMQ_API.withHelp(
          "RabbitMQ management API for queue depth and rates, or '" + OFF + "'");

  public static final Setting<String> RMQ_USER = CommonSettings.RMQ_USER;

  public static final Setting<String> RMQ_PASSWORD = CommonSettings.RMQ_PASSWORD;

  /** The server's queue: the client watches its depth. */
  public static final Setting<String> QUEUE =
      CommonSettings.QUEUE.withUse("the client watches its depth");

  /** The server's broker: the client reads the queue's depth there when the API does not answer. */
  public static final Setting<String> AMQP_URI =
      CommonSettings.AMQP_URI.withUse(
          "the client reads the queue depth there by passive declare when the management API"
              + " does not answer, or '"
              + OFF
              + "'");

  static final String METRICS_PATH = "/metrics";

  public static final Setting<String> SERVER_METRICS =
      Setting.text("ALBUMSTORE_SERVER_METRICS_URL", null, "the base URL + " + METRICS_PATH)
          .withFlag("--server-metrics", "URL")
          .withHelp(
              "The server's Prometheus metrics, read at the start and the end of the load for the"
                  + " time-per-tier table (several instances: their URLs, separated by commas), or '"
                  + OFF
                  + "'");

  public static final Setting<String> CONSUMER_METRICS =
      Setting.text("ALBUMSTORE_CONSUMER_METRICS_URL", "http://127.0.0.1:9091" + METRICS_PATH)
          .withFlag("--consumer-metrics", "URL")
          .withHelp(
              "The consumer's Prometheus metrics, read at the start and after the queue drained"
                  + " (several instances: their URLs, separated by commas), or '"
                  + OFF
                  + "'");

  /**
   * The servers' database: with {@code --history}, and in {@code check-history}, the checker reads
   * the rows of the run's albums and reviews there.
   */
  public static final Setting<String> JDBC_URL =
      CommonSettings.JDBC_URL.withUse(
          "the history's checker (--history, check-history) reads the run's rows there, or '"
              + OFF
              + "' to judge the reads only");

  public static final Setting<String> DB_USER = CommonSettings.DB_USER;

  public static final Setting<String> DB_PASSWORD = CommonSettings.DB_PASSWORD;

  /** The settings of the history's checker, alone in {@code check-history}. */
  public static final List<Setting<?>> DATABASE = List.of(JDBC_URL, DB_USER, DB_PASSWORD);

  /** In the order of {@code --help}, after the load's options. */
  public static final List<Setting<?>> DECLARED =
      List.of(
          URL,
          RMQ_API,
          RMQ_USER,
          RMQ_PASSWORD,
          QUEUE,
          AMQP_URI,
          SERVER_METRICS,
          CONSUMER_METRICS,
          JDBC_URL,
          DB_USER,
          DB_PASSWORD);

  /** The database of {@link #DATABASE} in {@code env}, or null when the URL is {@link #OFF}. */
  static DatabaseSettings database(Env env) {
    String url = JDBC_URL.read(env);
    return OFF.equals(url)
        ? null
        : new DatabaseSettings(url, DB_USER.read(env), DB_PASSWORD.read(env));
  }

  private ClientSettings() {}
}
