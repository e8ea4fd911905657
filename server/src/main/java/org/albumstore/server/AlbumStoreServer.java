package org.albumstore.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.server.internal.metrics.MetricsPort;
import org.albumstore.server.internal.web.AlbumUpload;
import org.albumstore.server.internal.web.FallbackServlet;
import org.apache.catalina.Globals;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.ErrorPage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runnable server: the same listener and servlets as the WAR, in an embedded Tomcat 11 under
 * {@code /albumstore}. {@link #start(Env)} is the API for tests, the {@code local/} module and the
 * command line ({@link ServerMain}).
 *
 * <p>Settings are resolved here once, validated (a bad value fails before anything opens), and
 * handed to the web application as context init parameters, which the listener layers over the
 * environment: the embedded server and the WAR read their settings through the same code.
 */
public final class AlbumStoreServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AlbumStoreServer.class);

  private final Tomcat tomcat;
  private final Path baseDir;
  private volatile StandardContext context;
  private volatile int port = -1;
  private volatile MetricsPort metricsPort;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);

  private AlbumStoreServer(Tomcat tomcat, Path baseDir) {
    this.tomcat = tomcat;
    this.baseDir = baseDir;
  }

  /**
   * Starts the server with the settings of {@code env} ({@code ALBUMSTORE_HTTP_PORT=0} picks a free
   * port) and returns once it accepts requests.
   *
   * @throws IllegalArgumentException for a setting that does not parse
   * @throws IllegalStateException when Tomcat or the web application fails to start
   */
  public static AlbumStoreServer start(Env env) {
    ServerSettings settings = ServerSettings.from(env);
    Map<String, String> params = contextParameters(env);
    Path baseDir = createBaseDir();
    Tomcat tomcat = newTomcat(baseDir, settings);
    MetricsPort metrics = MetricsPort.from(env);
    Connector metricsConnector = metrics.separate() ? metricsConnector(metrics) : null;
    if (metricsConnector != null) {
      tomcat.getService().addConnector(metricsConnector);
    }
    StandardContext ctx = addContext(tomcat, params);

    AlbumStoreServer server = new AlbumStoreServer(tomcat, baseDir);
    server.context = ctx;
    server.launch(metrics, metricsConnector);
    server.checkStarted(settings, metricsConnector);
    server.port = tomcat.getConnector().getLocalPort();
    log.info("Album Store listening on {}", server.baseUrl());
    if (metricsConnector != null) {
      log.info("metrics only on {}", server.metricsUrl());
    }
    return server;
  }

  /**
   * Every setting as resolved here (checked once more by the listener): the JVM's own environment,
   * which the listener layers these over, cannot change them. The metrics port follows once bound
   * (0 = a free one). The broker's and the database's settings are read too, so that a bad one
   * fails early, naming the setting, before Tomcat starts.
   */
  private static Map<String, String> contextParameters(Env env) {
    Map<String, String> params = ServerSettings.resolve(env);
    MetricsPort.DECLARED.forEach(s -> params.remove(s.variable()));
    AmqpSettings.from(env);
    DatabaseSettings.from(env);
    return params;
  }

  /**
   * Tomcat's working directory. Tomcat sets catalina.home (a JVM-wide property) to the first
   * embedded server's base directory and re-creates that directory when a later server starts, long
   * after the first one deleted it: each server points it at its own directory, so nothing is left
   * behind in /tmp.
   */
  private static Path createBaseDir() {
    Path baseDir;
    try {
      baseDir = Files.createTempDirectory("albumstore-tomcat-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create Tomcat's working directory", e);
    }
    System.setProperty(Globals.CATALINA_HOME_PROP, baseDir.toString());
    return baseDir;
  }

  /** A Tomcat with the API's connector and a host answering its own errors in JSON. */
  private static Tomcat newTomcat(Path baseDir, ServerSettings settings) {
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(baseDir.toString());
    tomcat.setConnector(connector(settings));
    StandardHost host = (StandardHost) tomcat.getHost();
    host.setAutoDeploy(false);
    host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
    return tomcat;
  }

  /**
   * The web application under {@code /albumstore}: the listener, its parameters, the error page.
   */
  private static StandardContext addContext(Tomcat tomcat, Map<String, String> params) {
    StandardContext ctx = (StandardContext) tomcat.addContext(CommonSettings.CONTEXT_PATH, null);
    // Leak detection is for redeployable webapps; here the application lives as long as the JVM,
    // and on Java 17 it only warns about missing --add-opens at every stop.
    ctx.setClearReferencesThreadLocals(false);
    ctx.setClearReferencesRmiTargets(false);
    params.forEach(ctx::addParameter);
    ctx.addApplicationListener(AlbumStoreListener.class.getName());
    ErrorPage errorPage = new ErrorPage(); // no code, no exception type: the default error page
    errorPage.setLocation(FallbackServlet.ERROR_PATH);
    ctx.addErrorPage(errorPage);
    return ctx;
  }

  /**
   * Binds the connectors, hands the web application the metrics port as bound, and starts it; on a
   * failure closes this server.
   */
  private void launch(MetricsPort metrics, Connector metricsConnector) {
    try {
      // init binds the connectors (bindOnInit): the metrics port chosen for port 0 is known before
      // the web application starts and reads it.
      tomcat.init();
      if (metricsConnector != null && metricsConnector.getLocalPort() > 0) {
        // Never -1 (= with the API) from a failed bind: that would publish what was to be hidden.
        metrics = new MetricsPort(metricsConnector.getLocalPort(), metrics.address());
      }
      metrics.asVariables().forEach(context::addParameter);
      metricsPort = metrics;
      tomcat.start();
    } catch (LifecycleException | RuntimeException e) {
      close();
      throw new IllegalStateException("embedded Tomcat failed to start: " + e.getMessage(), e);
    }
  }

  /** Closes this server and fails unless the web application and every connector started. */
  private void checkStarted(ServerSettings settings, Connector metricsConnector) {
    if (context.getState() != LifecycleState.STARTED
        || tomcat.getConnector().getState() != LifecycleState.STARTED
        || (metricsConnector != null && metricsConnector.getState() != LifecycleState.STARTED)) {
      close();
      throw new IllegalStateException(
          "the web application or the HTTP connector failed to start (port "
              + settings.httpPort()
              + (metricsConnector == null ? "" : ", metrics port " + metricsPort.port())
              + "); see the log above");
    }
  }

  /** The management port: metrics only, few threads, bound to the configured address. */
  private static Connector metricsConnector(MetricsPort m) {
    Connector c = new Connector("HTTP/1.1");
    c.setPort(m.port());
    c.setProperty("address", m.address());
    c.setProperty("maxThreads", "4");
    c.setProperty("server", "albumstore");
    return c;
  }

  private static Connector connector(ServerSettings s) {
    Connector c = new Connector("HTTP/1.1");
    c.setPort(s.httpPort());
    c.setProperty("maxThreads", Integer.toString(s.httpThreads()));
    // Tomcat counts non-file multipart parts against maxPostSize (default 2 MB): allow an image
    // sent without a filename up to the image limit.
    c.setMaxPostSize(s.maxImageBytes() + AlbumUpload.REQUEST_OVERHEAD_BYTES);
    // Load clients keep their connections: no forced reconnect every 100 requests.
    c.setProperty("maxKeepAliveRequests", "-1");
    // A request holds its processor until it completes, async ones included: a write waiting for
    // its confirm or a read waiting for its album holds no thread but does hold a processor. The
    // default cache (200) assumes no more requests than threads; beyond it, every request past the
    // 200th is served by a processor built (buffers, JMX registration) and thrown away again.
    // Unbounded is bounded by the connections: a connection has at most one request in progress.
    c.setProperty("processorCache", "-1");
    c.setProperty("server", "albumstore");
    return c;
  }

  /** The port the server listens on (the chosen one when started with port 0). */
  public int port() {
    return port;
  }

  /** E.g. {@code http://127.0.0.1:8080/albumstore}, without a trailing slash. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port + CommonSettings.CONTEXT_PATH;
  }

  /** Where {@code GET /metrics} answers: the management port if one is set, else the API's. */
  public String metricsUrl() {
    MetricsPort m = metricsPort;
    if (m == null || !m.separate()) {
      return baseUrl() + "/metrics";
    }
    String host =
        "0.0.0.0".equals(m.address()) || "::".equals(m.address()) ? "127.0.0.1" : m.address();
    return "http://" + host + ":" + m.port() + CommonSettings.CONTEXT_PATH + "/metrics";
  }

  /** Blocks until {@link #close()} finished (e.g. from the shutdown hook). */
  public void awaitClose() throws InterruptedException {
    stopped.await();
  }

  /**
   * The graceful stop behind a load balancer: {@code /health} answers 503 (DRAINING) at once while
   * everything else is still served for {@code delay}, so that the balancer stops routing here;
   * then the requests still in flight are awaited (bounded by a write's own deadline) and the
   * server {@link #close closes}.
   */
  public void drainAndClose(Duration delay) {
    ServerComponents components = components();
    if (components != null && !closed.get()) {
      try {
        components.readiness().drain(delay, components.inFlightWait());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    close();
  }

  /** The web application's components, or null when it did not start. */
  ServerComponents components() {
    StandardContext ctx = context;
    if (ctx == null || ctx.getServletContext() == null) {
      return null;
    }
    return (ServerComponents)
        ctx.getServletContext().getAttribute(AlbumStoreListener.COMPONENTS_ATTRIBUTE);
  }

  /**
   * Stops accepting requests, stops the web application (which closes the publisher, the broker
   * connection and the pool, in that order) and deletes Tomcat's working directory.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      tomcat.stop();
      tomcat.destroy();
    } catch (LifecycleException e) {
      log.warn("Embedded Tomcat did not stop cleanly", e);
    } finally {
      deleteRecursively(baseDir);
      // Tomcat left catalina.home/base pointing here; a later Tomcat in this JVM would re-create
      // it.
      for (String property :
          new String[] {Globals.CATALINA_HOME_PROP, Globals.CATALINA_BASE_PROP}) {
        if (baseDir.toString().equals(System.getProperty(property))) {
          System.clearProperty(property);
        }
      }
      stopped.countDown();
      log.info("Album Store stopped");
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.debug("Could not delete {}: {}", dir, e.toString());
    }
  }
}
