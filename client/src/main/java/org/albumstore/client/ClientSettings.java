package org.albumstore.client;

import java.util.List;
import org.albumstore.common.config.CommonSettings;
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
      Setting.text("ALBUMSTORE_RMQ_API", "http://127.0.0.1:15672")
          .withFlag("--rmq-api", "URL")
          .withHelp("RabbitMQ management API for queue depth and rates, or '" + OFF + "'");

  public static final Setting<String> RMQ_USER =
      Setting.text("ALBUMSTORE_RMQ_USER", "guest")
          .withFlag("--rmq-user", "USER")
          .withHelp("Management API user");

  public static final Setting<String> RMQ_PASSWORD =
      Setting.text("ALBUMSTORE_RMQ_PASSWORD", "guest")
          .withFlag("--rmq-password", "PASSWORD")
          .withHelp("Management API password")
          .asSecret();

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

  /** In the order of {@code --help}, after the load's options. */
  public static final List<Setting<?>> DECLARED =
      List.of(
          URL, RMQ_API, RMQ_USER, RMQ_PASSWORD, QUEUE, AMQP_URI, SERVER_METRICS, CONSUMER_METRICS);

  private ClientSettings() {}
}
