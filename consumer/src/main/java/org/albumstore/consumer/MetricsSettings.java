package org.albumstore.consumer;

import java.util.List;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;

/**
 * Where the consumer serves {@code GET /metrics}.
 *
 * <p>Why 127.0.0.1 by default: the endpoint has no authentication and tells anyone who can reach it
 * the load, the pool and the JVM's state. A Prometheus on the same host (or an SSH tunnel) reaches
 * it as it is; exposing it on the network ({@code --metrics-bind 0.0.0.0}) is a deliberate choice,
 * best made together with a firewall rule or security group that admits only the scraper.
 *
 * @param port TCP port; 0 picks a free one, -1 serves nothing
 * @param bindAddress the local address to listen on
 */
public record MetricsSettings(int port, String bindAddress) {
  public static final Setting<Integer> PORT =
      Setting.integer("ALBUMSTORE_METRICS_PORT", 9091, -1, 65535)
          .withFlag("--metrics-port", "PORT")
          .withHelp("Port of GET /metrics (Prometheus text format); 0 = any free port, -1 = off");

  public static final Setting<String> BIND =
      Setting.text("ALBUMSTORE_METRICS_BIND", "127.0.0.1")
          .withFlag("--metrics-bind", "ADDRESS")
          .withHelp(
              "Address the metrics port listens on; 0.0.0.0 exposes it to the network (no"
                  + " authentication)");

  /** In the order of {@code --help}. */
  public static final List<Setting<?>> DECLARED = List.of(PORT, BIND);

  /** No HTTP endpoint (the meters still count, e.g. for an embedding process). */
  public static final MetricsSettings OFF = new MetricsSettings(-1, BIND.defaultValue());

  public MetricsSettings {
    if (port < -1 || port > 65535) {
      throw new IllegalArgumentException(
          PORT.variable() + " must be between -1 (off) and 65535, was " + port);
    }
    if (bindAddress == null || bindAddress.isBlank()) {
      throw new IllegalArgumentException(BIND.variable() + " must not be empty");
    }
  }

  public static MetricsSettings from(Env env) {
    return new MetricsSettings(PORT.read(env), BIND.read(env));
  }

  public boolean enabled() {
    return port >= 0;
  }
}
