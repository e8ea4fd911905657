package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.TestServices;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.loader.WebappClassLoaderBase;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;

/**
 * Stopping the web application leaves none of its threads running. Tomcat looks, right after the
 * listener's {@code contextDestroyed}, for threads whose context class loader is the application's
 * and warns about each one ("appears to have started a thread named [...] but has failed to stop
 * it"): a leak on every redeploy of the WAR, and a warning on every stop of the embedded server.
 *
 * <p>The warnings are read from Tomcat's class-loader logger (java.util.logging, which Tomcat's
 * JULI writes to); the message text is localised, so the embedded and WAR checks assert that the
 * logger reported nothing at all, and the control check proves that the capture sees a real leak.
 * Those two see the pools' and connections' race on some stops only; the components check repeats
 * the stop and looks as Tomcat does: without the read pool's join it failed within 20 cycles in
 * each of three runs, and with the commit feed's connection on amqp-client's default thread factory
 * (which nothing joins) it fails in the first cycle.
 */
class StopLeakIT {
  private static final Path WAR = Path.of("target", "albumstore.war");
  private static final int CLOSE_CYCLES = 50;

  /** How {@code Executors.defaultThreadFactory()} names its threads: pool-N-thread-M. */
  private static final String DEFAULT_FACTORY_NAMES = "pool-";

  @Test
  void theEmbeddedServerStopsEveryThreadItStarted() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.stopleak");
    try (LeakWarnings warnings = new LeakWarnings()) {
      Map<String, String> env =
          new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
      env.put(CommonSettings.HTTP_PORT.variable(), "0");
      try (AlbumStoreServer server = AlbumStoreServer.start(Env.system().withOverrides(env))) {
        // The read pool holds connections (and so has threads to stop) once the database is UP.
        assertThat(new Api(server.baseUrl()).get("/health").json()).containsEntry("status", "UP");
      }
      assertThat(warnings.messages()).as("Tomcat's leak warnings at stop").isEmpty();
    } finally {
      TestServices.deleteTopology(amqp);
    }
  }

  @Test
  void theDeployedWarStopsEveryThreadItStarted() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.stopleak.war");
    Path base = Files.createTempDirectory("albumstore-stopleak-it-");
    try (LeakWarnings warnings = new LeakWarnings()) {
      Tomcat tomcat = tomcat(base);
      StandardContext ctx =
          (StandardContext) tomcat.addWebapp("/albumstore", WAR.toAbsolutePath().toString());
      // These two checks need --add-opens on Java 17, which a stock Tomcat's catalina.sh passes and
      // this test JVM does not: without them each stop warns that it cannot check. Threads are
      // checked either way.
      ctx.setClearReferencesThreadLocals(false);
      ctx.setClearReferencesRmiTargets(false);
      TestServices.overrides(amqp, TestServices.database()).forEach(ctx::addParameter);
      try {
        tomcat.start();
        assertThat(ctx.getState()).isEqualTo(LifecycleState.STARTED);
        Api api =
            new Api("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/albumstore");
        assertThat(api.get("/health").json()).containsEntry("status", "UP");
      } finally {
        tomcat.stop();
        tomcat.destroy();
      }
      assertThat(warnings.messages()).as("Tomcat's leak warnings at stop").isEmpty();
    } finally {
      TestServices.deleteTopology(amqp);
      deleteRecursively(base);
    }
  }

  /**
   * The cause, without Tomcat's timing: closing the components returns only after every thread of
   * the read pool and of the broker connections has ended. HikariCP's close waits for its executors
   * to terminate (or, for the housekeeper, only asks it to), and amqp-client's abort shuts down the
   * connection's consumer work pool, each a moment before their last thread exits; Tomcat looks
   * within that moment often enough to warn on one stop in a few. Repeated, so that a close that
   * returns early is caught.
   */
  @Test
  void closingTheComponentsReturnsOnlyAfterThePoolsThreadsEnded() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.stopleak.components");
    try {
      Env env = Env.system().withOverrides(TestServices.overrides(amqp, TestServices.database()));
      for (int cycle = 0; cycle < CLOSE_CYCLES; cycle++) {
        List<String> defaultNamedBefore = liveThreadsNamed(DEFAULT_FACTORY_NAMES);
        ServerComponents components =
            ServerComponents.start(
                ServerSettings.from(env), AmqpSettings.from(env), DatabaseSettings.from(env));
        try {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
          while (!components.databaseUp() && System.nanoTime() < deadline) {
            Thread.sleep(50);
          }
          // The connections' threads come from the components' own factory, which close joins,
          // not from amqp-client's default one (named pool-N-thread-M), which nothing joins.
          assertThat(liveThreadsNamed(ServerComponents.AMQP_THREADS))
              .as("threads of the broker connections made by the components, cycle %d", cycle)
              .isNotEmpty();
          assertThat(liveThreadsNamed(DEFAULT_FACTORY_NAMES))
              .as("threads started from a default thread factory, cycle %d", cycle)
              .allMatch(defaultNamedBefore::contains);
        } finally {
          components.close();
        }
        assertThat(liveThreadsNamed(ServerComponents.READ_POOL))
            .as("threads of the read pool alive right after close, cycle %d", cycle)
            .isEmpty();
        assertThat(liveThreadsNamed(ServerComponents.AMQP_THREADS))
            .as("threads of the broker connections alive right after close, cycle %d", cycle)
            .isEmpty();
      }
    } finally {
      TestServices.deleteTopology(amqp);
    }
  }

  private static List<String> liveThreadsNamed(String prefix) {
    // Enumerated as Tomcat does it (cheap, no safepoint): a thread that is about to exit is seen.
    Thread[] threads = new Thread[Thread.activeCount() + 64];
    int count = Thread.enumerate(threads);
    return Arrays.stream(threads, 0, count)
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(n -> n.startsWith(prefix))
        .toList();
  }

  /** The capture above is not blind: a thread an application leaves running is reported. */
  @Test
  void aThreadTheApplicationLeavesRunningIsReported() throws Exception {
    Path base = Files.createTempDirectory("albumstore-stopleak-it-");
    CountDownLatch release = new CountDownLatch(1);
    try (LeakWarnings warnings = new LeakWarnings()) {
      Tomcat tomcat = tomcat(base);
      StandardContext ctx = (StandardContext) tomcat.addContext("/leaky", null);
      ctx.addApplicationLifecycleListener(
          new ServletContextListener() {
            @Override
            public void contextInitialized(ServletContextEvent event) {
              // Created while Tomcat runs the listener, so its context class loader is the app's.
              Thread t = new Thread(() -> await(release), "stopleak-control");
              t.setDaemon(true);
              t.start();
            }
          });
      try {
        tomcat.start();
      } finally {
        tomcat.stop();
        tomcat.destroy();
      }
      assertThat(warnings.messages()).anyMatch(m -> m.contains("[stopleak-control]"));
    } finally {
      release.countDown();
      deleteRecursively(base);
    }
  }

  private static Tomcat tomcat(Path base) throws Exception {
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(0);
    tomcat.setConnector(connector);
    tomcat.getHost().setAppBase(base.resolve("webapps").toString());
    Files.createDirectories(base.resolve("webapps"));
    return tomcat;
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void deleteRecursively(Path dir) throws Exception {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Every WARNING or worse that Tomcat's web-application class loader logs while open. */
  private static final class LeakWarnings extends Handler implements AutoCloseable {
    // Held strongly: java.util.logging keeps loggers only weakly, and a collected logger would take
    // this handler with it.
    private final Logger logger = Logger.getLogger(WebappClassLoaderBase.class.getName());
    private final List<String> messages = new ArrayList<>();

    LeakWarnings() {
      setLevel(Level.WARNING);
      logger.addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord r) {
      if (isLoggable(r)) {
        messages.add(r.getMessage());
      }
    }

    synchronized List<String> messages() {
      return List.copyOf(messages);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }
}
