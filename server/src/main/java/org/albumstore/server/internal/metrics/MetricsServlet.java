package org.albumstore.server.internal.metrics;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * {@code GET /metrics}: the registry in the Prometheus text format (version 0.0.4), what Prometheus
 * and the load client scrape. Other methods get the container's 405 (as JSON, via the error page).
 * With a management port ({@link MetricsPort}), a request that arrived on any other port gets the
 * same 404 as an unknown path: the API port does not even reveal that metrics exist.
 */
final class MetricsServlet extends HttpServlet {
  /** The servlet's name and its path in the context. */
  static final String NAME = "metrics";

  static final String PATH = "/metrics";
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final transient Supplier<String> scrape;
  private final MetricsPort port;

  MetricsServlet(Supplier<String> scrape, MetricsPort port) {
    this.scrape = scrape;
    this.port = port;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (!port.answersOn(req.getLocalPort())) {
      resp.sendError(HttpServletResponse.SC_NOT_FOUND);
      return;
    }
    byte[] body = scrape.get().getBytes(StandardCharsets.UTF_8);
    resp.setStatus(200);
    resp.setContentType(CONTENT_TYPE);
    resp.setContentLength(body.length);
    resp.getOutputStream().write(body);
  }
}
