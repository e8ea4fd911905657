package org.albumstore.server;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRegistration;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.server.internal.metrics.MetricsPort;
import org.albumstore.server.internal.web.AlbumUpload;
import org.albumstore.server.internal.web.AlbumsServlet;
import org.albumstore.server.internal.web.AsyncRead;
import org.albumstore.server.internal.web.FallbackServlet;
import org.albumstore.server.internal.web.HealthServlet;
import org.albumstore.server.internal.web.InFlightFilter;
import org.albumstore.server.internal.web.NoopServlet;
import org.albumstore.server.internal.web.ReviewServlet;

/**
 * Wires the web application, identically in the WAR (declared in web.xml) and in the embedded
 * server (added by class name, so it may register servlets): reads the settings once, from {@code
 * ALBUMSTORE_*} context init parameters layered over the environment, opens {@link
 * ServerComponents}, registers one servlet per resource, and closes everything when the context
 * stops.
 *
 * <p>The WAR gets its settings from {@code ALBUMSTORE_*} variables (Tomcat's setenv.sh); the
 * embedded launcher passes its resolved flags as init parameters, which win.
 */
public final class AlbumStoreListener implements ServletContextListener {
  /**
   * Name of the context attribute holding the {@link ServerComponents}: the embedded server reads
   * it to drain before it stops.
   */
  public static final String COMPONENTS_ATTRIBUTE = ServerComponents.class.getName();

  private ServerComponents components;

  @Override
  public void contextInitialized(ServletContextEvent event) {
    ServletContext sc = event.getServletContext();
    Env env = Env.system().withOverrides(initParameters(sc));
    ServerSettings settings = ServerSettings.from(env);
    components =
        ServerComponents.start(settings, AmqpSettings.from(env), DatabaseSettings.from(env));
    sc.setAttribute(COMPONENTS_ATTRIBUTE, components);
    register(sc, components, MetricsPort.from(env));
    if (ServerSettings.BENCH_ENDPOINTS.read(env)) {
      // Opt-in only: a do-nothing endpoint on the same Tomcat, the baseline of bench/.
      map(sc.addServlet("bench-noop", new NoopServlet()), NoopServlet.PATHS);
    }
  }

  /**
   * Waits (bounded) for the requests in flight, then closes the components. The wait for the
   * balancer to stop routing here happened before, where the container still accepts requests: in
   * the embedded server's stop ({@link AlbumStoreServer#drainAndClose}); for the WAR, Tomcat has
   * already paused its connector when this runs, so its balancer must deregister the instance first
   * (an ALB's deregistration delay).
   */
  @Override
  public void contextDestroyed(ServletContextEvent event) {
    if (components != null) {
      try {
        components.readiness().drain(Duration.ZERO, components.inFlightWait());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      components.close();
      components = null;
    }
  }

  private static Map<String, String> initParameters(ServletContext sc) {
    Map<String, String> m = new HashMap<>();
    for (String name : Collections.list(sc.getInitParameterNames())) {
      if (name.startsWith("ALBUMSTORE_")) {
        m.put(name, sc.getInitParameter(name));
      }
    }
    return m;
  }

  /** One servlet per resource, the in-flight and timing filters, and the fallback for the rest. */
  private static void register(ServletContext sc, ServerComponents c, MetricsPort metricsPort) {
    ServerSettings s = c.settings();
    // Above the publisher's own deadlines (queue wait + confirm wait): only a safety net.
    long asyncTimeoutMs = 2L * s.confirmTimeoutMs() + 1000;
    // Above the waiters' own bound plus one query's timeout: only a safety net. A read queued for a
    // read thread longer than that (a stuck database) is answered 503 by it.
    long readTimeoutMs = s.readWait().maxWaitMs() + 10_000L;

    AsyncRead asyncRead = new AsyncRead(c.readThreads(), c.waiters(), readTimeoutMs);

    registerAlbums(sc, c, asyncRead, asyncTimeoutMs);

    ServletRegistration.Dynamic review =
        sc.addServlet(
            "review", new ReviewServlet(c.publisher(), c.reads(), asyncRead, asyncTimeoutMs));
    map(review, "/review/*");
    review.setAsyncSupported(true);
    review.setLoadOnStartup(1);

    ServletRegistration.Dynamic health =
        sc.addServlet("health", new HealthServlet(c.readiness(), c::brokerUp, c::databaseUp));
    map(health, "/health", "/health/*");

    // Counts every request until answered, so that a stop can wait for the writes in flight.
    FilterRegistration.Dynamic inFlight =
        sc.addFilter("in-flight", new InFlightFilter(c.readiness()));
    inFlight.setAsyncSupported(true);
    inFlight.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");

    // The timing filter on every request, and GET /metrics.
    c.metrics().register(sc, metricsPort);

    ServletRegistration.Dynamic fallback = sc.addServlet("fallback", new FallbackServlet());
    // "/" replaces the container's default servlet: unknown paths get JSON, not a static file.
    map(fallback, "/", FallbackServlet.ERROR_PATH);
    fallback.setAsyncSupported(true);
  }

  /**
   * {@code /albums}: async (writes wait for their confirm, reads possibly for their album), with
   * the multipart limits of the image.
   */
  private static void registerAlbums(
      ServletContext sc, ServerComponents c, AsyncRead asyncRead, long asyncTimeoutMs) {
    ServerSettings s = c.settings();
    ServletRegistration.Dynamic albums =
        sc.addServlet(
            "albums",
            new AlbumsServlet(
                c.publisher(),
                c.reads(),
                c.waiters(),
                asyncRead,
                s.maxImageBytes(),
                asyncTimeoutMs));
    map(albums, "/albums", "/albums/*");
    albums.setAsyncSupported(true);
    albums.setLoadOnStartup(1);
    albums.setMultipartConfig(
        new MultipartConfigElement(
            "",
            s.maxImageBytes(),
            (long) s.maxImageBytes() + AlbumUpload.REQUEST_OVERHEAD_BYTES,
            // Small uploads stay in memory; large ones spill to the context's temp dir while
            // parsed.
            Math.min(s.maxImageBytes(), 256 * 1024)));
  }

  /**
   * Maps or fails: a pattern already taken (by a web.xml servlet) would silently shadow the API.
   */
  private static void map(ServletRegistration.Dynamic servlet, String... patterns) {
    var conflicts = servlet.addMapping(patterns);
    if (!conflicts.isEmpty()) {
      throw new IllegalStateException(
          "cannot map servlet " + servlet.getName() + " to " + conflicts + ": already mapped");
    }
  }
}
