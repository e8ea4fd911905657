package org.albumstore.server.internal.publish;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.tls.TlsFailures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the server's broker connection: opens it at start-up, declares the topology, and keeps
 * trying in the background when the broker is not there yet.
 *
 * <p>Why the server starts without a broker: the client library's automatic recovery only heals a
 * connection that was once open. Refusing to start would turn a broker that boots a few seconds
 * late into a dead deployment; starting anyway answers writes 503 (retryable) and {@code /health}
 * DOWN until the first connect, after which automatic recovery takes over.
 */
public final class BrokerConnector implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BrokerConnector.class);
  private static final long RETRY_MS = 2000;

  private final AmqpSettings settings;
  private final String connectionName;
  private final Consumer<ConnectionFactory> instrument;
  private final ScheduledExecutorService retries;
  private volatile Connection connection;
  private volatile ConnectionSetup setup = c -> {};
  private volatile boolean quiet;
  private volatile boolean closed;
  private volatile boolean blocked;

  public BrokerConnector(AmqpSettings settings, String connectionName) {
    this(settings, connectionName, factory -> {});
  }

  /**
   * @param instrument applied to the connection factory before connecting (e.g. to add
   *     amqp-client's metrics collector)
   */
  public BrokerConnector(
      AmqpSettings settings, String connectionName, Consumer<ConnectionFactory> instrument) {
    this.settings = settings;
    this.connectionName = connectionName;
    this.instrument = instrument;
    this.retries =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "albumstore-amqp-connect");
              t.setDaemon(true);
              return t;
            });
  }

  /** What to do on the connection once it is open, and again after each recovery. */
  @FunctionalInterface
  public interface ConnectionSetup {
    void accept(Connection c) throws IOException;
  }

  /**
   * Runs {@code s} after the topology is declared, on each connect and each recovery (this
   * connection's own topology recovery is off: what {@code s} declares or consumes is set up again
   * by {@code s}). Before {@link #start}.
   */
  public void whenConnected(ConnectionSetup s) {
    this.setup = s;
  }

  /**
   * Logs this connection's failures at debug level only: for a second connection to the broker,
   * whose outages the first one already reports (one line per cause). Before {@link #start}.
   */
  public void quiet() {
    this.quiet = true;
  }

  /** Tries once now (so a healthy broker is ready when this returns), then in the background. */
  public void start() {
    if (!tryConnect(true)) {
      retries.scheduleWithFixedDelay(this::retry, RETRY_MS, RETRY_MS, TimeUnit.MILLISECONDS);
    }
  }

  private void retry() {
    if (connection == null && !closed && tryConnect(false)) {
      // Connected: automatic recovery takes over; stop the retry loop without interrupting us.
      retries.shutdown();
    }
  }

  /** Called by start() and then only by the single retry thread, never concurrently. */
  private boolean tryConnect(boolean first) {
    if (closed) {
      return false;
    }
    Connection c = null;
    try {
      ConnectionFactory factory = AmqpConnections.factory(settings);
      // The topology is declared on a short-lived channel; amqp-client's topology recovery would
      // replay it on that closed channel after a reconnect and log errors. It is declared again
      // explicitly after each recovery instead (see watch()).
      factory.setTopologyRecoveryEnabled(false);
      instrument.accept(factory);
      c = AmqpConnections.open(factory, settings, connectionName);
      declareTopology(c);
      setup.accept(c);
      watch(c);
      connection = c;
      if (closed) { // close() ran meanwhile and may not have seen this connection
        c.abort(1000);
        return false;
      }
      log.info(
          "Connected to {} and declared queue {} ({}, {} partition(s))",
          settings.redactedUri(),
          settings.queue(),
          settings.queueType().wireName(),
          settings.partitions());
      return true;
    } catch (Exception e) {
      if (c != null) {
        c.abort(1000);
      }
      if (first && quiet) {
        log.debug("{}: broker not reachable ({}); retrying", connectionName, e.toString());
      } else if (first) {
        log.warn(
            "Broker {} not reachable ({}); writes answer 503 until it is, retrying every {} ms",
            settings.redactedUri(),
            TlsFailures.describe(e),
            RETRY_MS);
      }
      return false;
    }
  }

  private void declareTopology(Connection c) throws IOException, TimeoutException {
    try (Channel ch = c.createChannel()) {
      Topology.declare(ch, settings);
    }
  }

  /** One log line per change of the connection's state; automatic recovery does the work. */
  private void watch(Connection c) {
    c.addShutdownListener(
        cause -> {
          // A new connection starts unblocked; if the alarm persists, the broker blocks it again.
          blocked = false;
          if (!cause.isInitiatedByApplication() && !quiet) {
            log.warn("Broker connection lost ({}); recovering", cause.getMessage());
          }
        });
    // The broker blocks publishing connections during a memory or disk alarm (connection.blocked):
    // it stops reading what they send, so a publish would wait its whole confirm timeout. Knowing
    // it lets the publisher answer 503 at once instead (see ConfirmedPublisher). An automatically
    // recovering connection keeps this listener across recoveries.
    c.addBlockedListener(
        reason -> {
          blocked = true;
          log.warn("Broker blocked publishing ({}); writes answer 503 until it unblocks", reason);
        },
        () -> {
          blocked = false;
          log.info("Broker unblocked publishing");
        });
    if (c instanceof Recoverable r) {
      r.addRecoveryListener(
          new RecoveryListener() {
            @Override
            public void handleRecovery(Recoverable recoverable) {
              log.info("Broker connection recovered");
              try {
                // A restarted broker may have lost a non-durable topology (the embedded broker
                // keeps it in memory); declaring is idempotent where it survived.
                declareTopology(c);
                setup.accept(c);
              } catch (IOException | TimeoutException | RuntimeException e) {
                log.warn("Could not set up the connection after recovery: {}", e.toString());
              }
            }

            @Override
            public void handleRecoveryStarted(Recoverable recoverable) {}
          });
    }
  }

  /** The open (or recovering) connection, or null before the first successful connect. */
  public Connection connection() {
    return connection;
  }

  /** True while the connection is open (false while down or recovering). */
  public boolean isUp() {
    Connection c = connection;
    return c != null && c.isOpen();
  }

  /**
   * True while the broker blocks this connection's publishing (a resource alarm: connection.blocked
   * received, connection.unblocked not yet).
   */
  public boolean isBlocked() {
    return blocked;
  }

  public AmqpSettings settings() {
    return settings;
  }

  /** Stops retrying and closes the connection, waiting at most {@code timeout}. */
  public void close(Duration timeout) {
    closed = true;
    retries.shutdownNow();
    try {
      if (!retries.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("Broker connect thread did not stop within {}", timeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Connection c = connection;
    connection = null;
    if (c != null) {
      // abort = close that does not throw when the connection is already gone.
      c.abort((int) timeout.toMillis());
      log.info("Closed broker connection {}", connectionName);
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(5));
  }
}
