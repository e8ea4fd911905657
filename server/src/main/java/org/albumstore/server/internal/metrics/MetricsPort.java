package org.albumstore.server.internal.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;

/**
 * Where {@code GET /metrics} is served: with the API (the default, which the one-command stack and
 * the client's tier table rely on), or only on a management port of its own.
 *
 * <p>Why a port and not a path rule: behind a load balancer every path of the API port is public,
 * so the figures (request rates, pool sizes, JVM details) are readable by anyone who can reach the
 * API. A separate port that only the operator's network (or loopback) reaches keeps them private
 * without authentication to configure. The servlet checks the port a request arrived on, so the
 * same rule holds in the embedded server (which opens that port itself, on {@link #address()}) and
 * in a WAR (where Tomcat's {@code server.xml} declares the second connector; see deploy/README.md).
 *
 * @param port the management port; {@value #WITH_API} = served with the API on every port; 0 = any
 *     free port (embedded server only)
 * @param address the address the embedded server binds the management port to
 */
public record MetricsPort(int port, String address) {
  public static final int WITH_API = -1;

  public static final Setting<Integer> PORT =
      Setting.integer("ALBUMSTORE_METRICS_PORT", WITH_API, WITH_API, 65535)
          .withFlag("--metrics-port", "PORT")
          .withHelp(
              "The port that alone serves GET /metrics, 0 for any free one; -1 serves them with"
                  + " the API");

  public static final Setting<String> ADDRESS =
      Setting.text("ALBUMSTORE_METRICS_ADDRESS", "127.0.0.1")
          .withFlag("--metrics-address", "ADDRESS")
          .withHelp("Address the metrics port binds to");

  /** In the order of {@code --help}. */
  public static final List<Setting<?>> DECLARED = List.of(PORT, ADDRESS);

  public static MetricsPort from(Env env) {
    return new MetricsPort(PORT.read(env), ADDRESS.read(env));
  }

  /** True when the metrics have a port of their own. */
  public boolean separate() {
    return port != WITH_API;
  }

  /** Whether a request that arrived on {@code localPort} may read the metrics. */
  boolean answersOn(int localPort) {
    return !separate() || localPort == port;
  }

  /** As {@code ALBUMSTORE_*} values, e.g. to pass them as context parameters. */
  public Map<String, String> asVariables() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(PORT.variable(), Integer.toString(port));
    m.put(ADDRESS.variable(), address);
    return m;
  }
}
