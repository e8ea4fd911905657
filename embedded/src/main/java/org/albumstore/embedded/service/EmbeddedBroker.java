package org.albumstore.embedded.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.albumstore.common.config.AmqpSettings;
import org.apache.qpid.server.SystemLauncher;
import org.apache.qpid.server.SystemLauncherListener;
import org.apache.qpid.server.model.Broker;
import org.apache.qpid.server.model.BrokerModel;
import org.apache.qpid.server.model.Port;
import org.apache.qpid.server.model.State;
import org.apache.qpid.server.model.SystemConfig;
import org.apache.qpid.server.model.port.AmqpPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An AMQP 0-9-1 broker inside this JVM (Apache Qpid Broker-J), for machines without RabbitMQ.
 *
 * <p>Everything lives in memory: the broker configuration ({@code Memory} system config), the
 * virtual host node and the virtual host, so nothing survives {@link #close()} and nothing is
 * written but a scratch work directory that close deletes. The AMQP port binds 127.0.0.1 only, on a
 * port the operating system picks (port 0): no race between choosing a free port and binding it.
 * The kernel's ephemeral range never includes 25672 (RabbitMQ's inter-node port), and the port is
 * checked anyway.
 *
 * <p>The virtual host is named {@code /}, so the URI form the project uses everywhere ({@code
 * amqp://guest:guest@127.0.0.1:PORT/%2F}) works unchanged; a misspelt virtual host is refused as it
 * would be by RabbitMQ.
 *
 * <p>Qpid refuses queue arguments it does not know (a connection error), and RabbitMQ's {@code
 * x-queue-type} and {@code x-dead-letter-exchange} are among them; the broker is told to ignore
 * unknown arguments instead ({@code queue.behaviourOnUnknownDeclareArgument=IGNORE}), so common's
 * topology declares unchanged. Qpid's own spelling of dead-lettering is {@code alternateExchange}
 * plus {@code x-qpid-maximum-delivery-count}; see the module's notes for the differences that
 * remain (a rejected message is requeued without them; returns are nacked; passive declares count
 * unacknowledged messages).
 *
 * <p>Qpid's operational log (one line per connection open/close, per queue created) goes through
 * SLF4J logger {@code qpid.message.*}; it is switched off with Qpid's own system property {@value
 * #STATUS_UPDATES_PROPERTY} unless the caller set that property, because with the runnables'
 * slf4j-simple binding it would print a line per connection. This class logs one line at start and
 * one at stop instead.
 */
public final class EmbeddedBroker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedBroker.class);

  /** RabbitMQ's inter-node (clustering) port: never bind it, a local RabbitMQ may need it. */
  static final int RABBITMQ_INTER_NODE_PORT = 25672;

  static final String VIRTUAL_HOST = "/";
  static final String USER = "guest";
  static final String PASSWORD = "guest";
  static final String STATUS_UPDATES_PROPERTY = "qpid.broker_status_updates";

  private final SystemLauncher launcher;
  private final Path workDir;
  private final int port;
  private final String version;
  private final Duration startupTime;

  private EmbeddedBroker(
      SystemLauncher launcher, Path workDir, int port, String version, Duration startupTime) {
    this.launcher = launcher;
    this.workDir = workDir;
    this.port = port;
    this.version = version;
    this.startupTime = startupTime;
  }

  /**
   * Starts a broker on a free loopback port.
   *
   * @throws IllegalStateException if it does not start; the message says why
   */
  public static EmbeddedBroker start() {
    long t0 = System.nanoTime();
    if (System.getProperty(STATUS_UPDATES_PROPERTY) == null) {
      System.setProperty(STATUS_UPDATES_PROPERTY, "false");
    }
    Path workDir;
    try {
      workDir = Files.createTempDirectory("albumstore-qpid-");
    } catch (IOException e) {
      throw new IllegalStateException("cannot create a work directory for the embedded broker", e);
    }
    StartupListener listener = new StartupListener();
    SystemLauncher launcher = new SystemLauncher(listener);
    try {
      Path config = workDir.resolve("initial-config.json");
      new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(config.toFile(), config());
      launcher.startup(systemAttributes(config, workDir));
      Broker<?> broker = listener.broker(); // throws what startup swallowed
      int port = boundAmqpPort(broker);
      if (port == RABBITMQ_INTER_NODE_PORT) {
        throw new IllegalStateException("the embedded broker was given port 25672, RabbitMQ's");
      }
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      EmbeddedBroker started =
          new EmbeddedBroker(launcher, workDir, port, broker.getProductVersion(), took);
      log.info(
          "embedded Qpid Broker-J {} started on 127.0.0.1:{} in {} ms",
          started.version,
          port,
          took.toMillis());
      return started;
    } catch (Exception | LinkageError e) { // LinkageError: a library clash on the classpath
      stopAfterFailure(launcher, workDir, e);
      if (e instanceof IllegalStateException ise) {
        throw ise;
      }
      throw new IllegalStateException("the embedded broker did not start: " + e, e);
    }
  }

  /** The broker's configuration: one user, one loopback AMQP 0-9-1 port, one in-memory vhost. */
  static Map<String, Object> config() {
    Map<String, Object> user = Map.of("name", USER, "type", "managed", "password", PASSWORD);
    // PLAIN is offered on plain TCP (Qpid's default keeps it for TLS only): the port is loopback.
    Map<String, Object> auth =
        Map.of(
            "name",
            "plain",
            "type",
            "Plain",
            "secureOnlyMechanisms",
            List.of(),
            "users",
            List.of(user));

    Map<String, Object> amqpPort = new LinkedHashMap<>();
    amqpPort.put("name", "AMQP");
    amqpPort.put("type", "AMQP");
    amqpPort.put("port", 0);
    amqpPort.put("bindingAddress", "127.0.0.1");
    amqpPort.put("protocols", List.of("AMQP_0_9_1", "AMQP_0_9", "AMQP_0_8"));
    amqpPort.put("authenticationProvider", "plain");
    // Qpid strips the leading '/' of a 0-9-1 virtual host name, so RabbitMQ's "/" arrives as "":
    // the default alias maps that (and only that) to the default node.
    amqpPort.put(
        "virtualhostaliases",
        List.of(
            Map.of("name", "nameAlias", "type", "nameAlias"),
            Map.of("name", "defaultAlias", "type", "defaultAlias")));

    Map<String, Object> node = new LinkedHashMap<>();
    node.put("name", VIRTUAL_HOST);
    node.put("type", "Memory");
    node.put("defaultVirtualHostNode", "true");
    node.put("virtualHostInitialConfiguration", "{\"type\": \"Memory\"}");

    Map<String, Object> broker = new LinkedHashMap<>();
    broker.put("name", "albumstore-embedded");
    broker.put("modelVersion", BrokerModel.MODEL_VERSION);
    broker.put("context", Map.of("queue.behaviourOnUnknownDeclareArgument", "IGNORE"));
    broker.put("authenticationproviders", List.of(auth));
    broker.put("ports", List.of(amqpPort));
    broker.put("virtualhostnodes", List.of(node));
    return broker;
  }

  private static Map<String, Object> systemAttributes(Path config, Path workDir) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put(SystemConfig.TYPE, "Memory");
    a.put(SystemConfig.INITIAL_CONFIGURATION_LOCATION, config.toUri().toString());
    a.put(SystemConfig.STARTUP_LOGGED_TO_SYSTEM_OUT, false);
    // Qpid would keep user preferences in a JSON file in the work directory; nothing needs them.
    a.put("preferenceStoreAttributes", "{\"type\": \"Noop\"}");
    a.put(
        SystemConfig.CONTEXT,
        Map.of("qpid.work_dir", workDir.toString(), "QPID_WORK", workDir.toString()));
    return a;
  }

  private static int boundAmqpPort(Broker<?> broker) {
    for (Port<?> p : broker.getPorts()) {
      if (p instanceof AmqpPort<?> amqp && p.getState() == State.ACTIVE) {
        int bound = amqp.getBoundPort();
        if (bound > 0) {
          return bound;
        }
      }
    }
    throw new IllegalStateException(
        "the embedded broker started but its AMQP port is not listening: " + broker.getPorts());
  }

  private static void stopAfterFailure(SystemLauncher launcher, Path workDir, Throwable e) {
    try {
      launcher.shutdown();
    } catch (RuntimeException shutdownFailure) {
      e.addSuppressed(shutdownFailure);
    }
    try {
      Directories.deleteRecursively(workDir);
    } catch (IOException deleteFailure) {
      e.addSuppressed(deleteFailure);
    }
  }

  public int port() {
    return port;
  }

  /** {@code amqp://guest:guest@127.0.0.1:PORT/%2F}. */
  public String uri() {
    return "amqp://" + USER + ":" + PASSWORD + "@127.0.0.1:" + port + "/%2F";
  }

  /** {@code base} (queue name and type) pointed at this broker. */
  public AmqpSettings settings(AmqpSettings base) {
    return new AmqpSettings(uri(), base.queue(), base.queueType())
        .withPartitions(base.partitions());
  }

  /** Qpid Broker-J's version, e.g. {@code 10.1.0}. */
  public String version() {
    return version;
  }

  /** How long {@link #start()} took. */
  public Duration startupTime() {
    return startupTime;
  }

  /** Stops the broker (Qpid bounds its own close at 30 s) and deletes the work directory. */
  @Override
  public void close() throws IOException {
    long t0 = System.nanoTime();
    try {
      launcher.shutdown();
    } finally {
      Directories.deleteRecursively(workDir);
    }
    log.info(
        "embedded Qpid Broker-J on port {} stopped in {} ms",
        port,
        Duration.ofNanos(System.nanoTime() - t0).toMillis());
  }

  @Override
  public String toString() {
    return "embedded Qpid Broker-J " + version + " on 127.0.0.1:" + port;
  }

  /** Keeps what {@link SystemLauncher#startup} reports only through its listener. */
  private static final class StartupListener
      extends SystemLauncherListener.DefaultSystemLauncherListener {
    private final AtomicReference<SystemConfig<?>> systemConfig = new AtomicReference<>();
    private final AtomicReference<RuntimeException> error = new AtomicReference<>();

    @Override
    public void onContainerResolve(SystemConfig<?> config) {
      systemConfig.set(config);
    }

    @Override
    public void errorOnStartup(RuntimeException e) {
      error.set(e);
    }

    Broker<?> broker() {
      RuntimeException e = error.get();
      if (e != null) {
        throw new IllegalStateException("the embedded broker did not start: " + e.getMessage(), e);
      }
      SystemConfig<?> config = systemConfig.get();
      Broker<?> broker = config != null && config.getContainer() instanceof Broker<?> b ? b : null;
      if (broker == null || broker.getState() != State.ACTIVE) {
        throw new IllegalStateException(
            "the embedded broker did not start: state "
                + (broker == null ? "unknown" : broker.getState()));
      }
      return broker;
    }
  }
}
