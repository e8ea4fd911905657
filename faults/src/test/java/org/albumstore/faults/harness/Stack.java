package org.albumstore.faults.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.TcpProxy;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.server.AlbumStoreServer;

/**
 * One scenario's world: a queue of its own on the test broker (declared here, deleted on close),
 * the shared test database, the real server in this JVM on a free port, consumer processes, and the
 * proxies through which the scenario takes the broker or the database away. Closed in reverse order
 * of opening.
 */
public final class Stack implements AutoCloseable {
  public final String name;
  public final String runId;
  public final AmqpSettings amqp;
  public final DatabaseSettings db;
  private final List<ConsumerProcess> consumers = new ArrayList<>();
  private AlbumStoreServer server;
  private TcpProxy brokerProxy;
  private TcpProxy dbProxy;

  private Stack(String name, AmqpSettings amqp, DatabaseSettings db) {
    this.name = name;
    this.runId = name.replaceAll("[^A-Za-z0-9]", "") + UUID.randomUUID().toString().substring(0, 6);
    this.amqp = amqp;
    this.db = db;
  }

  public static Stack create(String name) throws Exception {
    return create(name, TestServices.database());
  }

  /** As {@link #create(String)}, over another database (e.g. a PostgreSQL with TLS). */
  public static Stack create(String name, DatabaseSettings db) throws Exception {
    return new Stack(name, TestServices.declare(TestServices.amqp("faults." + name)), db);
  }

  /** A proxy to the broker, for the server (call before {@link #startServer}). */
  public TcpProxy brokerProxy() throws Exception {
    Addresses.HostPort hp = Addresses.of(amqp);
    brokerProxy = TcpProxy.start(hp.host(), hp.port());
    return brokerProxy;
  }

  /** A proxy to the database, for the consumer (call before {@link #startConsumer}). */
  public TcpProxy dbProxy() throws Exception {
    Addresses.HostPort hp = Addresses.of(db);
    dbProxy = TcpProxy.start(hp.host(), hp.port());
    return dbProxy;
  }

  /**
   * Starts the server on a free port with {@code settings} (ALBUMSTORE_* names) over the test
   * broker and database; through the broker proxy if one was made.
   */
  public AlbumStoreServer startServer(Map<String, String> settings) {
    AmqpSettings serverAmqp =
        brokerProxy == null ? amqp : Addresses.viaPort(amqp, brokerProxy.port());
    Map<String, String> env = new HashMap<>(TestServices.overrides(serverAmqp, db));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    env.putAll(settings);
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    return server;
  }

  public AlbumStoreServer server() {
    return server;
  }

  /**
   * Starts a consumer process (through the database proxy if one was made) and waits until it
   * consumes.
   */
  public ConsumerProcess startConsumer(String... extraArgs) throws Exception {
    DatabaseSettings consumerDb = dbProxy == null ? db : Addresses.viaPort(db, dbProxy.port());
    ConsumerProcess p =
        ConsumerProcess.start(
            name + "-consumer-" + (consumers.size() + 1), amqp, consumerDb, Map.of(), extraArgs);
    consumers.add(p);
    return p;
  }

  /** Redeliveries counted by every consumer process that stopped cleanly. */
  public long redeliveries() throws Exception {
    long sum = 0;
    for (ConsumerProcess p : consumers) {
      sum += Math.max(0, p.stoppedCounter("redelivered"));
    }
    return sum;
  }

  public long deadLettered() throws Exception {
    long sum = 0;
    for (ConsumerProcess p : consumers) {
      sum += Math.max(0, p.stoppedCounter("deadLettered"));
    }
    return sum;
  }

  @Override
  public void close() throws Exception {
    Exception failure = null;
    for (int i = consumers.size() - 1; i >= 0; i--) {
      try {
        consumers.get(i).close();
      } catch (Exception e) {
        failure = e;
      }
    }
    if (server != null) {
      server.close();
    }
    if (dbProxy != null) {
      dbProxy.close();
    }
    if (brokerProxy != null) {
      brokerProxy.close();
    }
    try {
      TestServices.deleteTopology(amqp);
    } catch (Exception e) {
      failure = e;
    }
    if (failure != null) {
      throw failure;
    }
  }

  public ConsumerProcess lastConsumer() {
    return consumers.get(consumers.size() - 1);
  }

  /** SIGTERM for the last consumer and a bounded wait for it to exit; its exit code. */
  public int stopConsumer() throws Exception {
    return consumers.get(consumers.size() - 1).terminate(Duration.ofSeconds(30));
  }
}
