package org.albumstore.server.internal.metrics;

import org.albumstore.common.metrics.MetricNames;

/**
 * The {@code uri} tag of {@code http_server_requests_seconds}: the route template of a request,
 * never its raw path (album IDs would make the series unbounded). Derived from the servlet that
 * served the request and its method, so no path is parsed twice on the hot path.
 */
enum Endpoint {
  ALBUMS(MetricNames.ALBUMS_URI),
  ALBUM("/albums/{albumID}"),
  VOTE(MetricNames.VOTE_URI),
  REVIEW_COUNTS("/review/{albumID}"),
  HEALTH("/health"),
  METRICS("/metrics"),
  /** Unknown paths (the fallback servlet's 404s) and anything not served by the API's servlets. */
  UNKNOWN("UNKNOWN");

  private final String uri;

  Endpoint(String uri) {
    this.uri = uri;
  }

  String uri() {
    return uri;
  }

  /**
   * @param servletName the name the listener registered the servlet under
   * @param get whether the method is GET: each API servlet serves one resource per method (a wrong
   *     method is answered 405 and counted under the servlet's other resource)
   */
  static Endpoint of(String servletName, boolean get) {
    if (servletName == null) {
      return UNKNOWN;
    }
    return switch (servletName) {
      case "albums" -> get ? ALBUM : ALBUMS;
      case "review" -> get ? REVIEW_COUNTS : VOTE;
      case "health" -> HEALTH;
      case MetricsServlet.NAME -> METRICS;
      default -> UNKNOWN;
    };
  }
}
