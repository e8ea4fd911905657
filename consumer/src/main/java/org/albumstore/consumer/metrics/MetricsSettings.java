package org.albumstore.consumer.metrics;

import org.albumstore.common.config.Env;

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
  public static final String PORT = "ALBUMSTORE_METRICS_PORT";
  public static final String BIND = "ALBUMSTORE_METRICS_BIND";
  public static final int DEFAULT_PORT = 9091;
  public static final String DEFAULT_BIND = "127.0.0.1";

  /** No HTTP endpoint (the meters still count, e.g. for an embedding process). */
  public static final MetricsSettings OFF = new MetricsSettings(-1, DEFAULT_BIND);

  public MetricsSettings {
    if (port < -1 || port > 65535) {
      throw new IllegalArgumentException(PORT + " must be between -1 (off) and 65535, was " + port);
    }
    if (bindAddress == null || bindAddress.isBlank()) {
      throw new IllegalArgumentException(BIND + " must not be empty");
    }
  }

  public static MetricsSettings from(Env env) {
    return new MetricsSettings(
        env.getInt(PORT, DEFAULT_PORT, -1, 65535), env.get(BIND, DEFAULT_BIND).trim());
  }

  public boolean enabled() {
    return port >= 0;
  }
}
