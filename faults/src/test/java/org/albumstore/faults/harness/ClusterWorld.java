package org.albumstore.faults.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.faults.planted.PlantedBug;
import org.apache.hc.core5.util.Timeout;
import org.slf4j.LoggerFactory;

/** One test's queue, server processes and consumer processes on a shared {@link ClusterStack}. */
public final class ClusterWorld implements AutoCloseable {
  /**
   * Queues of every cluster test's write stream: three, one per node, so that each scenario also
   * proves what partitions must keep (nothing lost, nothing counted twice, with leaders spread).
   */
  public static final int PARTITIONS = 3;

  private static final Duration DRAIN_DELAY = Duration.ofSeconds(3);

  private final ClusterStack stack;
  private final String name;
  private final String runId;
  private final AmqpSettings amqp;
  private final DatabaseSettings db;
  private final List<ServerProcess> servers = new ArrayList<>();
  private final List<ConsumerProcess> consumers = new ArrayList<>();
  private final List<ServerProcess> added = new ArrayList<>();
  private ApiClient api;
  private PlantedBug planted;
  private final int[] serverStarts = new int[ClusterStack.SERVERS];
  private final Map<String, String> serverEnv;

  ClusterWorld(
      ClusterStack stack, String name, Map<String, String> serverEnv, DatabaseSettings db) {
    this.stack = stack;
    this.name = name;
    this.db = db;
    this.serverEnv = Map.copyOf(serverEnv);
    this.runId = name.replaceAll("[^A-Za-z0-9]", "") + UUID.randomUUID().toString().substring(0, 6);
    this.amqp =
        new AmqpSettings(
            "amqp://guest:guest@127.0.0.1:" + stack.balancer().amqpPort() + "/%2F",
            "",
            "faults.cluster." + runId,
            QueueType.QUORUM,
            3,
            PARTITIONS);
  }

  public AmqpSettings amqp() {
    return amqp;
  }

  /** Where this world's servers and consumers write and read: the stack's, unless given. */
  public DatabaseSettings db() {
    return db;
  }

  /**
   * Every consumer this world starts from now on, replacements and additions included, runs with
   * {@code bug} planted ({@link ConsumerProcess#launchPlanted}); for the runs that prove the
   * nemesis catches it.
   */
  public void plant(PlantedBug bug) {
    this.planted = bug;
  }

  /** The servers, by index; a restarted one replaces its predecessor. */
  public List<ServerProcess> servers() {
    return servers;
  }

  /** Every consumer started, in order, the killed ones included. */
  public List<ConsumerProcess> consumers() {
    return consumers;
  }

  /** A run ID of this test's own, for the load's keys. */
  public String runId() {
    return runId;
  }

  public String balancerUrl() {
    return "http://127.0.0.1:" + stack.balancer().httpPort() + "/albumstore";
  }

  /**
   * The servers and {@code consumerCount} consumers, launched side by side and awaited together:
   * JVM start-up is most of each one's start, and one after another they cost every scenario
   * seconds.
   */
  public List<ConsumerProcess> start(int consumerCount, String... consumerArgs) throws Exception {
    return start(Release.current(), consumerCount, consumerArgs);
  }

  /** As {@link #start(int, String...)}, every server and consumer of {@code release}. */
  public List<ConsumerProcess> start(Release release, int consumerCount, String... consumerArgs)
      throws Exception {
    for (int i = 0; i < ClusterStack.SERVERS; i++) {
      servers.add(startServer(i, release));
    }
    List<ConsumerProcess> started = new ArrayList<>();
    for (int i = 0; i < consumerCount; i++) {
      started.add(launchConsumer(release, consumerArgs));
    }
    for (ConsumerProcess c : started) {
      c.awaitConsuming(amqp);
    }
    awaitInRotation();
    return started;
  }

  private ServerProcess startServer(int i, Release release) throws Exception {
    // A restarted server gets a log of its own: its predecessor's stays for the diagnosis, and
    // the wait for "listening" cannot read a line the predecessor wrote.
    String suffix = serverStarts[i]++ == 0 ? "" : "-restart-" + (serverStarts[i] - 1);
    return ServerProcess.start(
        name + "-server-" + (i + 1) + suffix,
        serverEnv(stack.serverPorts().get(i)),
        List.of(),
        release);
  }

  private Map<String, String> serverEnv(int port) {
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, db));
    env.put(CommonSettings.AMQP_ADDRESSES.variable(), amqp.addresses());
    env.put(CommonSettings.QUORUM_GROUP_SIZE.variable(), Integer.toString(amqp.quorumGroupSize()));
    env.put(CommonSettings.HTTP_PORT.variable(), Integer.toString(port));
    env.put("ALBUMSTORE_DRAIN_DELAY_MS", Long.toString(DRAIN_DELAY.toMillis()));
    env.putAll(serverEnv);
    return env;
  }

  /**
   * A server started on the balancer's spare slot (a scale-out, an ALB registering an instance);
   * returns once the balancer has it in its rotation. One at a time: {@link #removeAddedServer}
   * stops it.
   */
  public ServerProcess addServer() throws Exception {
    ServerProcess s =
        ServerProcess.start(
            name + "-server-added-" + (added.size() + 1), serverEnv(stack.sparePort()));
    added.add(s);
    // HAProxy's health check passes twice in a row first; at 1,000 writes/s on 2 cores a check
    // can time out, so the bound is generous.
    stack.balancer().awaitSpareUp(0, Duration.ofSeconds(180));
    return s;
  }

  /**
   * Stops the last added server with SIGTERM, if it runs (a scale-in: it drains, the balancer takes
   * it out); safe to repeat.
   */
  public void removeAddedServer() throws InterruptedException {
    if (!added.isEmpty() && added.get(added.size() - 1).isAlive()) {
      added.get(added.size() - 1).stop();
    }
  }

  /** Starts server {@code i} again, of the release it ran, once it has stopped. */
  public void restartServer(int i) throws Exception {
    servers.set(i, startServer(i, servers.get(i).release()));
    awaitInRotation();
  }

  /**
   * Replaces server {@code i} in its balancer slot by one of {@code release}: SIGTERM (its health
   * says DRAINING, the balancer takes it out, what is in flight is answered, it exits), then the
   * new one on the same port, returned once the balancer has it in its rotation.
   *
   * @return the old server's exit code, -1 when it had to be killed
   */
  public int replaceServer(int i, Release release) throws Exception {
    int exit = servers.get(i).stop();
    servers.set(i, startServer(i, release));
    awaitInRotation();
    return exit;
  }

  /**
   * As {@link #restartServer(int)}, the server publishing to and hearing the commits of {@code
   * broker} (another broker's entry, this world's queue) instead of this world's: how a broker
   * blue/green moves each server once its predecessor has drained and stopped.
   */
  public void restartServer(int i, AmqpSettings broker) throws Exception {
    Map<String, String> env = new HashMap<>(serverEnv(stack.serverPorts().get(i)));
    env.putAll(broker.asVariables());
    int start = serverStarts[i]++;
    String log = name + "-server-" + (i + 1) + (start == 0 ? "" : "-restart-" + start);
    servers.set(i, ServerProcess.start(log, env, List.of(), servers.get(i).release()));
    awaitInRotation();
  }

  /**
   * How long a started server may take to answer its health and join the rotation: seconds on a
   * quiet machine; at 1,000 writes/s on 2 cores, with a failover or a broker restart beside it,
   * over 60 s was seen.
   */
  private static final Duration IN_ROTATION_LIMIT = Duration.ofSeconds(180);

  /** Every server answers its own /health, and the balancer has it in its rotation. */
  private void awaitInRotation() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + IN_ROTATION_LIMIT.toNanos();
    for (int port : stack.serverPorts()) {
      URI health = URI.create("http://127.0.0.1:" + port + "/albumstore/health");
      while (true) {
        try {
          if (http.send(
                      HttpRequest.newBuilder(health).build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode()
              == 200) {
            break;
          }
        } catch (java.io.IOException e) {
          // not listening yet
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "server on port " + port + " not UP within " + IN_ROTATION_LIMIT);
        }
        Thread.sleep(100);
      }
    }
    stack.balancer().awaitServersUp(Duration.ofSeconds(30)); // each check passed twice (rise 2)
  }

  public ConsumerProcess startConsumer(String... extraArgs) throws Exception {
    return startConsumer(Release.current(), extraArgs);
  }

  /** A consumer of {@code release}, returned once it consumes. */
  public ConsumerProcess startConsumer(Release release, String... extraArgs) throws Exception {
    ConsumerProcess p = launchConsumer(release, extraArgs);
    p.awaitConsuming(amqp);
    return p;
  }

  /**
   * A consumer of {@code release} started as its supervisor does (systemd's {@code
   * Restart=on-failure}, an ECS service): one that exits because the broker did not answer its
   * start (a node just killed, paused or cut off behind the balancer) is started again, every 2 s
   * for {@code limit}. Of {@code release}: a supervisor restarts what was deployed.
   */
  public ConsumerProcess startConsumerSupervised(Release release, Duration limit) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      try {
        return startConsumer(release);
      } catch (IllegalStateException exited) {
        if (System.nanoTime() > deadline) {
          throw exited;
        }
        Thread.sleep(2_000);
      }
    }
  }

  private ConsumerProcess launchConsumer(Release release, String... extraArgs) throws IOException {
    String consumerName = name + "-consumer-" + (consumers.size() + 1);
    // The queue is declared by whichever side starts first, with the same arguments.
    Map<String, String> env =
        Map.of(
            CommonSettings.QUORUM_GROUP_SIZE.variable(), Integer.toString(amqp.quorumGroupSize()));
    ConsumerProcess p =
        planted == null
            ? ConsumerProcess.launch(consumerName, release, List.of(), amqp, db, env, extraArgs)
            : ConsumerProcess.launchPlanted(consumerName, planted, amqp, db, env, extraArgs);
    consumers.add(p);
    return p;
  }

  /** 16 writers through the balancer, paced so that the run lasts a few seconds. */
  public WriteLoad load() {
    return load(40, 100);
  }

  public WriteLoad load(int iterations, long pauseMillis) {
    api = new ApiClient(balancerUrl(), 32, Timeout.ofSeconds(15));
    return new WriteLoad(api, runId, 16, iterations, pauseMillis, Duration.ofSeconds(90), null)
        .start();
  }

  public record End(Audit.Result audit, long redeliveries, LoadStats stats) {
    public String line(String scenario) {
      long retries = stats.requests() - stats.writesAcked() - stats.writesGivenUp();
      return Summary.loadLine(
          scenario,
          stats,
          redeliveries,
          audit,
          "retries "
              + retries
              + ", balancer 502/504s "
              + stats.balancerErrors()
              + ", longest without a 200 "
              + stats.longestWithoutOkMillis()
              + " ms");
    }
  }

  /** Drain, SIGTERM every consumer still running, audit; the run's rows are deleted. */
  public End finish(WriteLoad load) throws Exception {
    try (Audit audit = new Audit(load.acknowledged(), amqp, db)) {
      try {
        audit.awaitDrained(Duration.ofSeconds(120));
        long redeliveries = 0;
        for (ConsumerProcess c : consumers) {
          if (c.isAlive()) {
            c.terminate(Duration.ofSeconds(30));
          }
          redeliveries += Math.max(0, c.stoppedCounter("redelivered"));
        }
        return new End(audit.check(0), redeliveries, load.stats());
      } finally {
        audit.deleteRows();
      }
    }
  }

  @Override
  public void close() throws Exception {
    for (ConsumerProcess c : consumers) {
      c.close();
    }
    for (ServerProcess s : servers) {
      s.close();
    }
    for (ServerProcess s : added) {
      s.close();
    }
    if (api != null) {
      api.close();
    }
    // The next scenario's partitions are placed by the leaders already on each node: this one's
    // must not count. A broker that cannot delete now (a scenario that failed mid-fault) leaves
    // them to the cluster's end.
    try {
      TestServices.deleteTopology(amqp);
    } catch (Exception e) {
      LoggerFactory.getLogger(ClusterWorld.class)
          .warn("{}: could not delete queue {}: {}", name, amqp.queue(), e.toString());
    }
  }
}
