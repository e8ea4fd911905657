package org.albumstore.client.internal.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's own small HTTP server, with the JDK's {@code com.sun.net.httpserver}: {@code
 * /metrics} for Prometheus ({@code --metrics-port}), or the live page, its JSON and its chart
 * library ({@code --live}). A page polled once a second and a scrape every few seconds need no
 * framework; one thread answers, off the load's threads.
 */
public final class WatchServer implements AutoCloseable {
  public static final String METRICS = "/metrics";
  public static final String STATE = "/state.json";
  public static final String REPORT = "/report.html";
  static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final String WEBJAR = "META-INF/resources/webjars/uplot/";
  private static final Logger log = LoggerFactory.getLogger(WatchServer.class);

  /** A response: its content type and body, made when asked. */
  private record Resource(String contentType, Supplier<byte[]> body) {}

  private final HttpServer server;
  private final ExecutorService executor;

  private WatchServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Serves {@code /metrics} from {@code metrics} on {@code bind:port} (0: a free port). */
  public static WatchServer metrics(String bind, int port, ClientMetrics metrics)
      throws IOException {
    return start(
        bind,
        port,
        Map.of(
            METRICS,
            new Resource(
                PROMETHEUS_TYPE, () -> metrics.scrape().getBytes(StandardCharsets.UTF_8))));
  }

  /**
   * Serves the live page of {@code watch} on {@code bind:port}: the page, its state as JSON, the
   * chart library from its WebJar and, once written, the run's {@code report.html} in {@code dir}.
   */
  public static WatchServer live(String bind, int port, RunWatch watch, Path dir)
      throws IOException {
    String uplot = WEBJAR + uplotVersion() + "/dist/";
    LiveState state = new LiveState(watch);
    return start(
        bind,
        port,
        Map.of(
            "/",
            new Resource("text/html; charset=utf-8", () -> resource("index.html")),
            "/live.js",
            new Resource("text/javascript; charset=utf-8", () -> resource("live.js")),
            "/uPlot.iife.min.js",
            new Resource(
                "text/javascript; charset=utf-8", () -> resource(uplot + "uPlot.iife.min.js")),
            "/uPlot.min.css",
            new Resource("text/css; charset=utf-8", () -> resource(uplot + "uPlot.min.css")),
            STATE,
            new Resource("application/json", state::json),
            REPORT,
            new Resource(
                "text/html; charset=utf-8",
                () -> watch.reportWritten() ? read(dir.resolve("report.html")) : null)));
  }

  private static WatchServer start(String bind, int port, Map<String, Resource> routes)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 16);
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "albumstore-client-watch-http");
              t.setDaemon(true); // close() stops it; daemon so that it never holds the JVM
              return t;
            });
    server.setExecutor(executor);
    server.createContext("/", exchange -> answer(exchange, routes));
    server.start();
    return new WatchServer(server, executor);
  }

  private static void answer(HttpExchange exchange, Map<String, Resource> routes)
      throws IOException {
    try (exchange) {
      Resource r = routes.get(exchange.getRequestURI().getPath());
      byte[] body = r == null ? null : r.body().get();
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().set("Allow", "GET");
        exchange.sendResponseHeaders(405, -1);
      } else if (body == null) {
        exchange.sendResponseHeaders(404, -1);
      } else {
        exchange.getResponseHeaders().set("Content-Type", r.contentType());
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    } catch (IOException e) {
      log.debug("watch request failed: {}", e.toString()); // the browser went away
    } catch (RuntimeException e) {
      log.warn("watch request failed", e);
    }
  }

  /** The uPlot WebJar's version, from the Maven properties it carries. */
  static String uplotVersion() {
    try (InputStream in =
        WatchServer.class
            .getClassLoader()
            .getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
      if (in == null) {
        throw new IllegalStateException("the uPlot WebJar is not on the class path");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] resource(String name) {
    // The page's own files sit beside this class; the chart library in its WebJar.
    String path =
        name.startsWith("META-INF/")
            ? name
            : WatchServer.class.getPackageName().replace('.', '/') + "/" + name;
    try (InputStream in = WatchServer.class.getClassLoader().getResourceAsStream(path)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      return null;
    }
  }

  /** The port listened on (the chosen one when started with port 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  /** The address to give a browser or a scraper, e.g. {@code http://127.0.0.1:8089}. */
  public String url() {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().getHostAddress();
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
