package org.albumstore.server.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import org.albumstore.common.config.Env;

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
  public static final String PORT = "ALBUMSTORE_METRICS_PORT";
  public static final String ADDRESS = "ALBUMSTORE_METRICS_ADDRESS";
  public static final int WITH_API = -1;
  public static final int DEFAULT_PORT = WITH_API;
  public static final String DEFAULT_ADDRESS = "127.0.0.1";

  public static MetricsPort from(Env env) {
    return new MetricsPort(
        env.getInt(PORT, DEFAULT_PORT, WITH_API, 65535), env.get(ADDRESS, DEFAULT_ADDRESS).trim());
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
  public Map<String, String> asEnvMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(PORT, Integer.toString(port));
    m.put(ADDRESS, address);
    return m;
  }
}
