package org.albumstore.consumer.internal.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics}, {@code GET /health} and {@code GET /health/live} ({@link ConsumerHealth})
 * on a port of its own, with the JDK's built-in HTTP server: the consumer has no web container, and
 * a scrape or a health check every few seconds needs nothing more (no new dependency). Two threads
 * answer, so that a slow reader of one answer does not hold the next request. Neither answer waits
 * for a dependency: readiness reads what {@link DatabaseProbe} found last.
 */
public final class MetricsHttpServer implements AutoCloseable {
  public static final String PATH = "/metrics";
  public static final String HEALTH = "/health";
  public static final String LIVENESS = "/health/live";
  static final String JSON = "application/json";
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final Logger log = LoggerFactory.getLogger(MetricsHttpServer.class);

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsHttpServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Listens on {@code bindAddress:port} (port 0: a free one) and serves {@code scrape()}.
   *
   * @throws IOException if the address cannot be bound (port taken, unknown address)
   */
  public static MetricsHttpServer start(
      String bindAddress, int port, Supplier<String> scrape, ConsumerHealth health)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
    ExecutorService executor =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "albumstore-consumer-metrics-http");
              t.setDaemon(true); // close() stops it; daemon so a forgotten close cannot hang a JVM
              return t;
            });
    server.setExecutor(executor);
    server.createContext("/", exchange -> answer(exchange, scrape, health));
    server.start();
    return new MetricsHttpServer(server, executor);
  }

  private static void answer(HttpExchange exchange, Supplier<String> scrape, ConsumerHealth health)
      throws IOException {
    try {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      if (!PATH.equals(path) && !HEALTH.equals(path) && !LIVENESS.equals(path)) {
        send(
            exchange,
            404,
            "text/plain; charset=utf-8",
            "not found; try " + PATH + ", " + HEALTH + " or " + LIVENESS + "\n",
            method);
      } else if (!"GET".equals(method) && !"HEAD".equals(method)) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        send(exchange, 405, "text/plain; charset=utf-8", "use GET\n", method);
      } else if (PATH.equals(path)) {
        send(exchange, 200, CONTENT_TYPE, scrape.get(), method);
      } else {
        ConsumerHealth.Report r = HEALTH.equals(path) ? health.ready() : health.live();
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        send(exchange, r.status(), JSON, r.json(), method);
      }
    } catch (IOException e) {
      log.debug("metrics request failed: {}", e.toString()); // the scraper went away
    } catch (RuntimeException e) {
      log.warn("metrics scrape failed", e);
      exchange.sendResponseHeaders(500, -1);
    } finally {
      exchange.close();
    }
  }

  private static void send(
      HttpExchange exchange, int status, String contentType, String body, String method)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if ("HEAD".equals(method)) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** The port listened on (the chosen one when started with port 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops listening, waits at most a second for a scrape in progress, then stops the thread. */
  @Override
  public void close() {
    server.stop(1);
    executor.shutdown();
    try {
      if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
