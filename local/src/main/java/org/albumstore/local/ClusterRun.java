package org.albumstore.local;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.albumstore.client.ClientSettings;
import org.albumstore.common.amqp.ManagementApi;
import org.albumstore.common.amqp.WriteBacklog;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.consumer.ConsumerMain;
import org.albumstore.consumer.MetricsSettings;
import org.albumstore.embedded.Resolved;
import org.albumstore.embedded.ServiceResolver;
import org.albumstore.embedded.Source;
import org.albumstore.embedded.cluster.HaProxy;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.albumstore.embedded.cluster.RabbitNode;
import org.albumstore.server.ServerMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --topology cluster}: the AWS topology in miniature on this machine, from the real engines.
 *
 * <pre>
 *  client -HTTP-> HAProxy http (leastconn, /health) -> N server JVMs
 *                                                          | AMQP, confirms
 *                                                          v
 *              HAProxy tcp (one endpoint) -> 3 RabbitMQ nodes (quorum queue, 3 members)
 *                                                          | AMQP
 *                                                          v
 *       PostgreSQL (local or embedded) <-JDBC- M consumer JVMs
 * </pre>
 *
 * <p>Why child JVMs started from this jar's own class path rather than threads of this JVM: an
 * instance must be killable on its own ({@code kill -9} a server, a consumer) and stopped by
 * SIGTERM as a supervisor would, which threads cannot show. Why one HAProxy for both: one process
 * to stop; the two frontends are independent ({@link HaProxy}).
 *
 * <p>The broker nodes are always started here (never the configured or local broker): a cluster
 * cannot be made from a node this run does not own. The database is resolved as for the single
 * stack.
 */
final class ClusterRun extends LaunchBase {
  private static final Logger log = LoggerFactory.getLogger(ClusterRun.class);

  static final int STEPS = 6;

  /** A server JVM's start: Tomcat, the first broker connection through HAProxy, the pool. */
  static final Duration SERVER_START_LIMIT = Duration.ofSeconds(90);

  /** Longer than a server's drain delay plus its in-flight wait, and a consumer's last batch. */
  static final Duration INSTANCE_STOP_LIMIT = Duration.ofSeconds(30);

  private volatile Started started;

  /** Every consumer started's {@code /metrics}, for the client's time-per-tier table. */
  private final List<String> consumerMetrics = new CopyOnWriteArrayList<>();

  /** What was started, for the client and for tests that break it. */
  record Started(
      Resolved<DatabaseSettings> database,
      RabbitCluster brokers,
      HaProxy balancer,
      AmqpSettings amqp,
      List<ChildJvm> servers,
      List<Integer> serverPorts,
      List<ChildJvm> consumers,
      Path dir) {

    String balancerUrl() {
      return "http://127.0.0.1:" + balancer.httpPort() + CommonSettings.CONTEXT_PATH;
    }
  }

  ClusterRun(LaunchCommand options, Env env, PrintStream out, PrintStream err) {
    super(options, env, out, err, STEPS);
  }

  @Override
  protected String stopOrder() {
    return "the load client, the consumers, the servers, HAProxy, the brokers";
  }

  @Override
  public int call() {
    boolean ok = false;
    try {
      out.printf(
          Locale.ROOT,
          "Album Store as a cluster on this machine: database, %d RabbitMQ nodes, HAProxy, %d"
              + " servers, %d consumers, then the load client. Ctrl-C stops everything.%n",
          options.brokerNodes,
          options.servers,
          options.consumers);
      Started s = start();
      started = s;
      int code = runClientOn(s);
      ok = code == 0;
      return code;
    } catch (Exception e) {
      return LaunchFailure.report(e, out, err, log, "the cluster");
    } finally {
      try {
        stack.close(SHUTDOWN_LIMIT);
        Started s = started;
        if (s != null && ok) {
          deleteRecursively(s.dir); // the nodes' data and the logs: nothing to look at
        } else if (s != null) {
          out.println("logs of the nodes, HAProxy and the instances kept in " + s.dir);
        }
      } finally {
        done.countDown();
      }
    }
  }

  /** Checks the options and the tools, then starts every part in order. */
  Started start() throws Exception {
    checkTools();
    String queue = CommonSettings.QUEUE.read(env);
    ServiceResolver resolver = new ServiceResolver(env, options.embedded);
    resolver.databaseSource();
    String runId = UUID.randomUUID().toString().substring(0, 8);
    Path dir = Files.createTempDirectory("albumstore-cluster-" + runId + "-");
    Resolved<DatabaseSettings> database = startDatabase(resolver);
    RabbitCluster brokers = startBrokers(runId, dir);
    stack.checkRunning("balancer");
    long t0 = System.nanoTime();
    List<Integer> serverPorts = new ArrayList<>();
    for (int i = 0; i < options.servers; i++) {
      serverPorts.add(RabbitNode.freePort());
    }
    List<Integer> sparePorts = new ArrayList<>();
    for (int i = 0; options.autoscale && i < options.maxServers - options.servers; i++) {
      sparePorts.add(RabbitNode.freePort());
    }
    HaProxy balancer =
        stack.add(
            "HAProxy",
            HaProxy.start(dir.resolve("haproxy"), serverPorts, sparePorts, brokers.amqpPorts()));
    AmqpSettings amqp = amqpThrough(balancer, queue, CommonSettings.QUEUE_PARTITIONS.read(env));
    step(3, balancerLine(balancer), t0);
    List<ChildJvm> servers = startServers(serverPorts, amqp, database.settings(), dir);
    List<ChildJvm> consumers = startConsumers(balancer, amqp, database.settings(), dir);
    out.println(partitionsLine(brokers, amqp));
    if (options.autoscale) {
      startAutoscaler(brokers, balancer, sparePorts, amqp, database.settings(), dir, runId);
    }
    return new Started(
        database,
        brokers,
        balancer,
        amqp,
        List.copyOf(servers),
        List.copyOf(serverPorts),
        List.copyOf(consumers),
        dir);
  }

  /** The cluster options, and the installed RabbitMQ and HAProxy it needs. */
  private void checkTools() {
    options.checkCluster();
    if (!RabbitCluster.installed()) {
      throw new IllegalStateException(
          "--topology cluster needs RabbitMQ installed (Debian/Ubuntu: apt-get install"
              + " rabbitmq-server; macOS: brew install rabbitmq)");
    }
    if (HaProxy.executable().isEmpty()) {
      throw new IllegalStateException(
          "--topology cluster needs HAProxy installed (Debian/Ubuntu: apt-get install haproxy;"
              + " macOS: brew install haproxy)");
    }
  }

  /** Step 1: the database, resolved as for the single stack, with the schema applied. */
  private Resolved<DatabaseSettings> startDatabase(ServiceResolver resolver) throws Exception {
    long t0 = System.nanoTime();
    Resolved<DatabaseSettings> database = resolver.resolveDatabase();
    if (database.source() == Source.EMBEDDED) {
      stack.add("embedded PostgreSQL", database);
    }
    applySchema(database.settings());
    step(1, database.description() + "; schema applied", t0);
    return database;
  }

  /** Step 2: the RabbitMQ nodes, clustered, with their data under {@code dir}. */
  private RabbitCluster startBrokers(String runId, Path dir) throws Exception {
    stack.checkRunning("broker nodes");
    long t0 = System.nanoTime();
    RabbitCluster brokers =
        stack.add(
            "RabbitMQ cluster",
            RabbitCluster.start(
                "albumstore-" + runId, options.brokerNodes, dir.resolve("rabbit"), true));
    step(
        2,
        "brokers: "
            + options.brokerNodes
            + " RabbitMQ nodes clustered on ports "
            + brokers.amqpPorts()
            + " (partition handling "
            + RabbitCluster.PARTITION_HANDLING
            + ")",
        t0);
    return brokers;
  }

  /** The instances' broker: one endpoint, the balancer's tcp frontend; quorum queues. */
  private AmqpSettings amqpThrough(HaProxy balancer, String queue, int partitions) {
    return new AmqpSettings(
        "amqp://guest:guest@127.0.0.1:" + balancer.amqpPort() + "/%2F",
        CommonSettings.AMQP_ADDRESSES.defaultValue(),
        queue,
        QueueType.QUORUM,
        Math.min(3, options.brokerNodes),
        partitions);
  }

  /** Each partition's queue and the node its leader runs on, as the brokers say now. */
  private static String partitionsLine(RabbitCluster brokers, AmqpSettings amqp) {
    Map<String, String> leaders = brokers.leaders();
    return amqp.partitionList().stream()
        .map(p -> p.queue() + " led by " + leaders.getOrDefault(p.queue(), "(no leader now)"))
        .collect(Collectors.joining(", ", "      partitions: ", ""));
  }

  private static String balancerLine(HaProxy balancer) {
    return "balancer: HAProxy (pid "
        + balancer.pid()
        + ") http on "
        + balancer.httpPort()
        + " (leastconn, /albumstore/health), amqp on "
        + balancer.amqpPort()
        + " (tcp)";
  }

  /** Step 4: a server JVM on each of {@code ports}, each answering UP. */
  private List<ChildJvm> startServers(
      List<Integer> ports, AmqpSettings amqp, DatabaseSettings db, Path dir) throws Exception {
    stack.checkRunning("servers");
    long t0 = System.nanoTime();
    List<ChildJvm> servers = new ArrayList<>();
    for (int i = 0; i < options.servers; i++) {
      servers.add(stack.add("server " + (i + 1), startServer(i + 1, ports.get(i), amqp, db, dir)));
    }
    for (int port : ports) {
      ServerHealth.awaitUp(
          "http://127.0.0.1:" + port + CommonSettings.CONTEXT_PATH, SERVER_START_LIMIT);
    }
    step(4, "servers: " + options.servers + " JVMs on ports " + ports + ", each UP", t0);
    return servers;
  }

  /**
   * Step 5: the consumer JVMs; done once the balancer routes to the servers and every consumer's
   * metrics answer.
   */
  private List<ChildJvm> startConsumers(
      HaProxy balancer, AmqpSettings amqp, DatabaseSettings db, Path dir) throws Exception {
    stack.checkRunning("consumers");
    long t0 = System.nanoTime();
    List<ChildJvm> consumers = new ArrayList<>();
    for (int i = 0; i < options.consumers; i++) {
      consumers.add(stack.add("consumer " + (i + 1), startConsumer(i + 1, amqp, db, dir)));
    }
    // The balancer routes only to servers whose check passed twice.
    balancer.awaitServersUp(SERVER_START_LIMIT);
    // Each consumer consumes, and its metrics answer before the client's first reading of them.
    for (String metrics : consumerMetrics) {
      ServerHealth.awaitUp(
          metrics.substring(0, metrics.lastIndexOf("/metrics")), SERVER_START_LIMIT);
    }
    step(
        5,
        "consumers: "
            + options.consumers
            + " JVMs on queue "
            + amqp.queue()
            + " ("
            + amqp.partitions()
            + " partition(s), quorum, "
            + amqp.quorumGroupSize()
            + " members each)",
        t0);
    return consumers;
  }

  /** {@code --autoscale}: the scaler, on the cluster's management API and the balancer's stats. */
  private void startAutoscaler(
      RabbitCluster brokers,
      HaProxy balancer,
      List<Integer> sparePorts,
      AmqpSettings amqp,
      DatabaseSettings db,
      Path dir,
      String runId)
      throws IOException {
    String api =
        brokers
            .managementApi()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "--autoscale needs RabbitMQ's management plugin (rabbitmq_management)"));
    WriteBacklog backlog =
        new WriteBacklog(
            // The cluster's own nodes, with RabbitMQ's stock local user (as its AMQP URI above).
            new ManagementApi(
                api,
                "/",
                CommonSettings.RMQ_USER.defaultValue(),
                CommonSettings.RMQ_PASSWORD.defaultValue()),
            amqp.queue(),
            amqp.partitions());
    Path timeline = timeline(runId);
    Autoscaler.Options o =
        new Autoscaler.Options(
            Duration.ofSeconds(options.scalePeriod),
            options.servers,
            options.maxServers,
            options.consumers,
            options.maxConsumers,
            options.serverTarget,
            options.consumerTargetLatency,
            options.consumerMessageMillis,
            timeline);
    stack.add(
        "autoscaler",
        Autoscaler.start(
            o,
            backlog,
            balancer,
            sparePorts,
            (n, port) -> startServer(n, port, amqp, db, dir),
            n -> startConsumer(n, amqp, db, dir)));
    out.printf(
        Locale.ROOT,
        "      autoscale: every %d s (AWS's minute %.0fx faster), servers %d-%d at %.0f requests/s"
            + " each, consumers %d-%d at %.0f messages of backlog each; timeline %s%n",
        options.scalePeriod,
        o.compression(),
        options.servers,
        options.maxServers,
        options.serverTarget,
        options.consumers,
        options.maxConsumers,
        o.consumerPolicy().target(),
        timeline);
  }

  /** {@code --autoscale-timeline}, else in the client's {@code --out}, else here. */
  private Path timeline(String runId) {
    if (options.autoscaleTimeline != null) {
      return options.autoscaleTimeline;
    }
    List<String> a = options.clientArgs;
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i).equals("--out") && i + 1 < a.size()) {
        return Path.of(a.get(i + 1), "autoscale.csv");
      }
      if (a.get(i).startsWith("--out=")) {
        return Path.of(a.get(i).substring("--out=".length()), "autoscale.csv");
      }
    }
    return Path.of("albumstore-autoscale-" + runId + ".csv");
  }

  ChildJvm startServer(int n, int port, AmqpSettings amqp, DatabaseSettings db, Path dir)
      throws IOException {
    Map<String, String> e = instanceEnv(amqp, db);
    e.put(CommonSettings.HTTP_PORT.variable(), Integer.toString(port));
    return ChildJvm.start(
        "server-" + n,
        ServerMain.class.getName(),
        List.of(),
        e,
        dir.resolve("server-" + n + ".log"),
        INSTANCE_STOP_LIMIT);
  }

  ChildJvm startConsumer(int n, AmqpSettings amqp, DatabaseSettings db, Path dir)
      throws IOException {
    Map<String, String> e = instanceEnv(amqp, db);
    // Several consumers on one machine: a free metrics port each (they would all want 9091).
    int metricsPort = RabbitNode.freePort();
    e.put(MetricsSettings.PORT.variable(), Integer.toString(metricsPort));
    consumerMetrics.add("http://127.0.0.1:" + metricsPort + "/metrics");
    return ChildJvm.start(
        "consumer-" + n,
        ConsumerMain.class.getName(),
        List.of(),
        e,
        dir.resolve("consumer-" + n + ".log"),
        INSTANCE_STOP_LIMIT);
  }

  /**
   * The launch's own {@code ALBUMSTORE_*} settings (the process's, or a test's), then the started
   * broker's and database's, which win.
   */
  private Map<String, String> instanceEnv(AmqpSettings amqp, DatabaseSettings db) {
    Map<String, String> e = new HashMap<>(env.startingWith("ALBUMSTORE_"));
    e.putAll(amqp.asVariables());
    e.putAll(db.asVariables());
    return e;
  }

  private int runClientOn(Started s) {
    String url =
        options.bypassBalancer
            ? "http://127.0.0.1:" + s.serverPorts().get(0) + CommonSettings.CONTEXT_PATH
            : s.balancerUrl();
    // Every instance's metrics (the balancer's URL would give a different server each time), which
    // the client merges per tier; the cluster's management API for the queue and its rates.
    String serverMetrics =
        s.serverPorts().stream()
            .map(p -> "http://127.0.0.1:" + p + CommonSettings.CONTEXT_PATH + "/metrics")
            .collect(Collectors.joining(","));
    List<String> args =
        ClientArguments.build(
            url,
            s.amqp(),
            s.brokers().managementApi().orElse(ClientSettings.OFF),
            ClientSettings.RMQ_API.isSet(env),
            serverMetrics,
            String.join(",", consumerMetrics),
            options.clientArgs);
    return runClient(args).exitCode();
  }

  private static void deleteRecursively(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.debug("could not delete {}: {}", dir, e.toString());
    }
  }
}
