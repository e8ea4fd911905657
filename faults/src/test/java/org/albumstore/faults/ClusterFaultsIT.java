package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.cluster.HaProxy;
import org.albumstore.embedded.cluster.Partition;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.albumstore.embedded.cluster.RabbitNode;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.Audit;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.LoadStats;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.ServerProcess;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster topology broken the ways production breaks, each under load through the balancer:
 * three RabbitMQ nodes (quorum queue, 3 members) behind HAProxy in {@code mode tcp}, two server
 * processes behind HAProxy in {@code mode http} ({@code leastconn}, {@code /health}), consumer
 * processes, the shared test database. Every scenario ends with the ledger audit exact: every
 * acknowledged write applied once, nothing counted twice.
 *
 * <p>The cluster and the balancer are shared by the scenarios (starting three nodes takes half a
 * minute); each scenario has its own queue, servers and consumers. The partition (C6) also needs
 * iptables and the right to change its rules; its rules match only this cluster's links ({@link
 * Partition}).
 */
class ClusterFaultsIT {
  private static final int SERVERS = 2;
  private static final Duration DRAIN_DELAY = Duration.ofSeconds(3);

  /** How long a node paused by the partition may take to resume once it has healed (C6). */
  private static final Duration RESUME_LIMIT = Duration.ofSeconds(20);

  private static final Logger log = LoggerFactory.getLogger(ClusterFaultsIT.class);

  private static RabbitCluster brokers;

  /**
   * Iterations a thread may make in a scenario whose fault lasts as long as the machine makes it
   * (node restarts, a partition's pause and rejoin): at 700 ms apart, about 5 minutes at most, a
   * bound the scenario never reaches since it ends the load once the fault is over.
   */
  private static final int LONG_LOAD_ITERATIONS = 400;

  /**
   * Six iterations of each of the load's 16 threads: the load is in its stride when the fault
   * comes.
   */
  private static final long WRITES_BEFORE_THE_FAULT = 16 * 6 * 4;

  private static HaProxy balancer;
  private static final List<Integer> serverPorts = new ArrayList<>();
  private static DatabaseSettings db;

  @BeforeAll
  static void startCluster() throws Exception {
    ExternalTools tools = ExternalTools.system();
    tools.requireThat(
        RabbitCluster.installed(),
        "RabbitMQ (apt-get install rabbitmq-server)",
        "the cluster fault scenarios (3 RabbitMQ nodes)");
    tools.requireThat(
        HaProxy.executable().isPresent(),
        "HAProxy (apt-get install haproxy)",
        "the cluster fault scenarios' balancer");
    String id = UUID.randomUUID().toString().substring(0, 8);
    Path dir = Paths.outputDir().resolve("cluster-" + id);
    db = TestServices.database();
    brokers = RabbitCluster.start("albumstore-faults-" + id, 3, dir.resolve("rabbit"));
    for (int i = 0; i < SERVERS; i++) {
      serverPorts.add(RabbitNode.freePort());
    }
    balancer = HaProxy.start(dir.resolve("haproxy"), serverPorts, brokers.amqpPorts());
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (balancer != null) {
      balancer.close();
    }
    if (brokers != null) {
      brokers.close();
    }
  }

  @Test
  void scenario3_aServerKilledMidRunCostsRetriesOnTheOtherServerAndNothingIsCountedTwice()
      throws Exception {
    try (World w = new World("s3-server-kill")) {
      w.start(2);
      WriteLoad load = w.load();
      try {
        load.awaitAcked(load.plannedWrites() / 3, Duration.ofSeconds(60));
        boolean midRun = !load.isDone();
        w.servers.get(0).kill();
        load.awaitDone(Duration.ofSeconds(120));
        World.End end = w.finish(load);
        Summary.record(end.line("scenario C3 (server SIGKILL mid-run, 2 servers behind HAProxy)"));

        assertThat(midRun).as("the kill came while the load was running").isTrue();
        LoadChecks.assertClean(load.stats());
        assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
      } finally {
        load.interrupt();
      }
    }
  }

  @Test
  void scenario4_aRollingRestartOfTheServersFailsNoRequest() throws Exception {
    try (World w = new World("s4-server-rolling")) {
      w.start(1);
      WriteLoad load = w.load();
      try {
        load.awaitAcked(load.plannedWrites() / 5, Duration.ofSeconds(60));
        boolean midRun = !load.isDone();
        for (int i = 0; i < SERVERS; i++) {
          int exit = w.servers.get(i).stop(); // SIGTERM: not ready, drain, in-flight, stop
          assertThat(exit).as("server " + (i + 1) + " exit after SIGTERM").isIn(0, 143);
          w.restartServer(i);
        }
        load.awaitDone(Duration.ofSeconds(120));
        World.End end = w.finish(load);
        Summary.record(end.line("scenario C4 (rolling restart of both servers, SIGTERM + drain)"));

        assertThat(midRun).as("the restarts came while the load was running").isTrue();
        LoadChecks.assertClean(load.stats());
        LoadStats s = load.stats();
        assertThat(s.status(503)).as("503s during a rolling restart: " + s).isZero();
        assertThat(s.balancerErrors()).as("502/504 from the balancer: " + s).isZero();
        assertThat(s.ioErrors()).as("I/O errors: " + s).isZero();
        assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
      } finally {
        load.interrupt();
      }
    }
  }

  @Test
  void scenario5_aConsumerKilledAndAnotherAddedMidRunLoseNothingAndCountNothingTwice()
      throws Exception {
    try (World w = new World("s5-consumer-kill-add")) {
      // Long batch waits: the killed consumer holds deliveries it has not acknowledged.
      ConsumerProcess first = w.start(2, "--batch-wait-ms", "200").get(0);
      WriteLoad load = w.load();
      try {
        load.awaitAcked(load.plannedWrites() / 3, Duration.ofSeconds(60));
        boolean midRun = !load.isDone();
        first.kill();
        w.startConsumer(); // a consumer instance added mid-run
        load.awaitDone(Duration.ofSeconds(120));
        World.End end = w.finish(load);
        Summary.record(end.line("scenario C5 (consumer SIGKILL and a consumer added mid-run)"));

        assertThat(midRun).as("the kill came while the load was running").isTrue();
        LoadChecks.assertClean(load.stats());
        assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
        assertThat(end.redeliveries()).as("redeliveries after the kill").isPositive();
      } finally {
        load.interrupt();
      }
    }
  }

  @Test
  void scenario1_theQuorumLeadersNodeKilledMidRunAndBackLosesNothingAndCountsNothingTwice()
      throws Exception {
    try (World w = new World("s1-leader-kill")) {
      w.start(2);
      WriteLoad load = w.load();
      try {
        load.awaitAcked(load.plannedWrites() / 4, Duration.ofSeconds(60));
        boolean midRun = !load.isDone();
        String leader = brokers.leaderOf(w.amqp.queue()).orElseThrow();
        int node = brokers.indexOf(leader);
        brokers.kill(node);
        long down = System.nanoTime();
        // Down until the other two have elected a leader and writes are acknowledged without it.
        String interim = awaitLeaderOtherThan(w.amqp.queue(), leader, Duration.ofSeconds(60));
        long acked = load.stats().writesAcked();
        load.awaitAcked(Math.min(acked + 20, load.plannedWrites()), Duration.ofSeconds(60));
        brokers.restart(node);
        long downMillis = (System.nanoTime() - down) / 1_000_000;
        load.awaitDone(Duration.ofSeconds(180));
        World.End end = w.finish(load);
        String newLeader = brokers.leaderOf(w.amqp.queue()).orElse("none");
        Summary.record(
            end.line(
                "scenario C1 (quorum leader's node SIGKILL, down (restart included) "
                    + downMillis
                    + " ms, back; leader was "
                    + leader
                    + ", was "
                    + interim
                    + " while it was down, is "
                    + newLeader
                    + ")"));

        assertThat(midRun).as("the kill came while the load was running").isTrue();
        LoadChecks.assertClean(load.stats());
        assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
      } finally {
        load.interrupt();
      }
    }
  }

  @Test
  void scenario2_aRollingRestartOfTheThreeBrokerNodesLosesNothingAndCountsNothingTwice()
      throws Exception {
    try (World w = new World("s2-broker-rolling")) {
      w.start(2);
      // Paced, and long enough to outlast three node restarts however slow the machine (10 to
      // 25 s each seen here); ended once writes are acknowledged after the last restart.
      WriteLoad load = w.load(LONG_LOAD_ITERATIONS, 700);
      try {
        load.awaitAcked(WRITES_BEFORE_THE_FAULT, Duration.ofSeconds(60));
        long t0 = System.nanoTime();
        for (int i = 0; i < brokers.nodes().size(); i++) {
          brokers.stop(i); // rabbitmqctl stop: Amazon MQ's maintenance window, one node at a time
          brokers.restart(i);
        }
        long rollingMillis = (System.nanoTime() - t0) / 1_000_000;
        boolean midRun = !load.isDone();
        endOnceWritesGoOn(load);
        World.End end = w.finish(load);
        Summary.record(
            end.line(
                "scenario C2 (rolling restart of the 3 broker nodes, "
                    + rollingMillis
                    + " ms in all)"));

        assertThat(midRun).as("the load outlasted the rolling restart").isTrue();
        LoadChecks.assertClean(load.stats());
        assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
      } finally {
        load.interrupt();
      }
    }
  }

  @Test
  void scenario6_theQuorumLeadersNodeCutOffFromTheOthersPausesRejoinsAndLosesNothing()
      throws Exception {
    Optional<String> why = Partition.unavailable();
    ExternalTools.system()
        .requireThat(
            why.isEmpty(),
            "iptables with the right to change the rules (root or CAP_NET_ADMIN): "
                + why.orElse(""),
            "scenario C6 (a network partition between broker nodes)");
    try (World w = new World("s6-partition")) {
      w.start(2);
      // Paced, and long enough to outlast noticing the partition (net_ticktime), the pause and
      // the rejoin however slow the machine; ended once writes are acknowledged after the rejoin.
      WriteLoad load = w.load(LONG_LOAD_ITERATIONS, 700);
      try {
        load.awaitAcked(WRITES_BEFORE_THE_FAULT, Duration.ofSeconds(60));
        String leader = brokers.leaderOf(w.amqp.queue()).orElseThrow();
        int node = brokers.indexOf(leader);
        long t0 = System.nanoTime();
        long pausedMillis;
        long firstAckMillis;
        long cutMillis;
        long ackedWhilePaused;
        boolean midRun;
        List<String> rulesAfterHeal;
        try (Partition cut = brokers.isolate(node)) {
          // pause_minority: the node alone stops its applications and closes its listeners.
          pausedMillis = awaitAmqpListener(node, false, Duration.ofSeconds(60));
          long acked = load.stats().writesAcked();
          long pausedAt = System.nanoTime();
          // The majority carries on. Not within a fixed time: a publish sent to the old leader
          // before the new one was elected waits out its confirm timeout (5 s) before its 503 and
          // retry, so the first 200 after the pause may take longer than that.
          load.awaitAcked(acked + 1, Duration.ofSeconds(30));
          firstAckMillis = (System.nanoTime() - pausedAt) / 1_000_000;
          Thread.sleep(Math.max(0, 5_000 - firstAckMillis)); // cut off for 5 s at least
          ackedWhilePaused = load.stats().writesAcked() - acked;
          midRun = !load.isDone();
          cutMillis = (System.nanoTime() - t0) / 1_000_000;
          cut.heal();
          rulesAfterHeal = cut.activeRules();
        }
        long healed = System.nanoTime();
        String resumed = resumeAfterHeal(node);
        long rejoinMillis = awaitRunningNodes(node, Duration.ofSeconds(60), healed);
        endOnceWritesGoOn(load);
        World.End end = w.finish(load);
        String newLeader = brokers.leaderOf(w.amqp.queue()).orElse("none");
        Summary.record(
            end.line(
                "scenario C6 (quorum leader's node cut off from the other two by iptables DROP"
                    + " for "
                    + cutMillis
                    + " ms, paused itself after "
                    + pausedMillis
                    + " ms, the majority's first 200 "
                    + firstAckMillis
                    + " ms after the pause, "
                    + resumed
                    + ", running in the cluster again "
                    + rejoinMillis
                    + " ms after the heal; leader was "
                    + leader
                    + ", is "
                    + newLeader
                    + ")"));

        assertThat(midRun).as("the partition lasted while the load was running").isTrue();
        assertThat(ackedWhilePaused)
            .as("writes acknowledged by the majority while the node was paused")
            .isPositive();
        assertThat(rulesAfterHeal).as("iptables rules left after the heal").isEmpty();
        assertThat(brokers.membersOf(w.amqp.queue())).as("quorum members").hasSize(3);
        LoadChecks.assertClean(load.stats());
        assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
      } finally {
        load.interrupt();
      }
    }
  }

  /**
   * Waits for node {@code i}, paused by {@code pause_minority}, to resume once the partition has
   * healed; returns how it resumed, for the summary.
   *
   * <p>Why a restart may follow: RabbitMQ 3.10 resumes a paused node by itself once it sees a
   * majority again, and does here 1.4 to 7 s after the heal, but not always: a paused node can stay
   * stopped after the heal (rabbitmq-server#2175, docker-library/rabbitmq#337). Seen here in two of
   * about a dozen runs of C6, both in full CI runs; the node's log then ends with Erlang's global
   * name server "faking nodedown/nodeup" between the nodes, and the node no longer answers even
   * {@code rabbitmqctl stop}. Our guarantees are not about that step: they are that the majority
   * carried on and that nothing acknowledged is lost or counted twice. So a node still stopped
   * after {@link #RESUME_LIMIT} gets what deploy/README.md's runbook prescribes, a kill and a
   * restart, its log is kept in the test output, the summary says so, and every assertion of the
   * scenario still applies.
   */
  private static String resumeAfterHeal(int node) throws Exception {
    try {
      long millis = awaitAmqpListener(node, true, RESUME_LIMIT);
      return "resumed by itself " + millis + " ms after the heal";
    } catch (IllegalStateException stuck) {
      RabbitNode paused = brokers.nodes().get(node);
      log.warn(
          "{} still paused {} after the heal; restarting it (the runbook's remedy). Its log:{}",
          paused.nodeName(),
          RESUME_LIMIT,
          paused.logTail());
      // SIGKILL, not rabbitmqctl stop: a node stuck this way does not answer a stop either (seen:
      // Erlang's global name server confused by the partition, the stop timing out after 60 s).
      brokers.kill(node);
      brokers.restart(node);
      long millis = awaitAmqpListener(node, true, Duration.ofSeconds(90));
      return "still paused "
          + RESUME_LIMIT.toSeconds()
          + " s after the heal, so restarted (listening "
          + millis
          + " ms after the restart)";
    }
  }

  /**
   * Waits until node {@code i}'s AMQP listener accepts ({@code open}) or refuses connections;
   * returns the milliseconds it took.
   */
  private static long awaitAmqpListener(int i, boolean open, Duration limit) throws Exception {
    long t0 = System.nanoTime();
    while (true) {
      boolean accepts;
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", brokers.amqpPort(i)), 1_000);
        accepts = true;
      } catch (java.io.IOException e) {
        accepts = false;
      }
      long millis = (System.nanoTime() - t0) / 1_000_000;
      if (accepts == open) {
        return millis;
      }
      if (millis > limit.toMillis()) {
        throw new IllegalStateException(
            "node "
                + brokers.nodes().get(i).nodeName()
                + (open ? " did not listen again" : " did not pause")
                + " within "
                + limit);
      }
      Thread.sleep(200);
    }
  }

  /**
   * Ends a {@link #LONG_LOAD_ITERATIONS} load once another 64 writes were acknowledged (the system
   * works again after the fault), and waits for its threads to finish their iterations.
   */
  private static void endOnceWritesGoOn(WriteLoad load) throws InterruptedException {
    load.awaitAcked(load.stats().writesAcked() + 64, Duration.ofSeconds(60));
    load.endAfterCurrentIterations();
    load.awaitDone(Duration.ofSeconds(120));
  }

  /** Waits until {@code queue} has a leader and it is not {@code former}; returns the leader. */
  private static String awaitLeaderOtherThan(String queue, String former, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    Optional<String> leader = brokers.leaderOf(queue);
    while (leader.isEmpty() || leader.get().equals(former)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "no new leader for " + queue + " within " + limit + " (seen: " + leader + ")");
      }
      Thread.sleep(200);
      leader = brokers.leaderOf(queue);
    }
    return leader.get();
  }

  /** Waits until node {@code i} sees all nodes running; milliseconds since {@code since}. */
  private static long awaitRunningNodes(int i, Duration limit, long since) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    int size = brokers.nodes().size();
    List<String> seen = List.of();
    while (System.nanoTime() < deadline) {
      try {
        seen = brokers.runningNodesSeenBy(i);
        if (seen.size() == size) {
          return (System.nanoTime() - since) / 1_000_000;
        }
      } catch (java.io.IOException e) {
        seen = List.of(e.getMessage());
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException(
        "node " + brokers.nodes().get(i).nodeName() + " sees " + seen + " running after " + limit);
  }

  /** One scenario's queue, server processes and consumer processes on the shared cluster. */
  private static final class World implements AutoCloseable {
    final String name;
    final String runId;
    final AmqpSettings amqp;
    final List<ServerProcess> servers = new ArrayList<>();
    final List<ConsumerProcess> consumers = new ArrayList<>();
    private ApiClient api;
    private final int[] serverStarts = new int[SERVERS];

    World(String name) {
      this.name = name;
      this.runId =
          name.replaceAll("[^A-Za-z0-9]", "") + UUID.randomUUID().toString().substring(0, 6);
      this.amqp =
          new AmqpSettings(
              "amqp://guest:guest@127.0.0.1:" + balancer.amqpPort() + "/%2F",
              "",
              "faults.cluster." + runId,
              QueueType.QUORUM,
              3);
    }

    String balancerUrl() {
      return "http://127.0.0.1:" + balancer.httpPort() + "/albumstore";
    }

    /**
     * The servers and {@code consumerCount} consumers, launched side by side and awaited together:
     * JVM start-up is most of each one's start, and one after another they cost every scenario
     * seconds.
     */
    List<ConsumerProcess> start(int consumerCount, String... consumerArgs) throws Exception {
      for (int i = 0; i < SERVERS; i++) {
        servers.add(startServer(i));
      }
      List<ConsumerProcess> started = new ArrayList<>();
      for (int i = 0; i < consumerCount; i++) {
        started.add(launchConsumer(consumerArgs));
      }
      for (ConsumerProcess c : started) {
        c.awaitConsuming(amqp);
      }
      awaitInRotation();
      return started;
    }

    private ServerProcess startServer(int i) throws Exception {
      Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, db));
      env.put(CommonSettings.AMQP_ADDRESSES.variable(), amqp.addresses());
      env.put(
          CommonSettings.QUORUM_GROUP_SIZE.variable(), Integer.toString(amqp.quorumGroupSize()));
      env.put(CommonSettings.HTTP_PORT.variable(), Integer.toString(serverPorts.get(i)));
      env.put("ALBUMSTORE_DRAIN_DELAY_MS", Long.toString(DRAIN_DELAY.toMillis()));
      // A restarted server gets a log of its own: its predecessor's stays for the diagnosis, and
      // the wait for "listening" cannot read a line the predecessor wrote.
      String suffix = serverStarts[i]++ == 0 ? "" : "-restart-" + (serverStarts[i] - 1);
      return ServerProcess.start(name + "-server-" + (i + 1) + suffix, env);
    }

    void restartServer(int i) throws Exception {
      servers.set(i, startServer(i));
      awaitInRotation();
    }

    /** Every server answers its own /health, and the balancer has it in its rotation. */
    private void awaitInRotation() throws Exception {
      HttpClient http = HttpClient.newHttpClient();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      for (int port : serverPorts) {
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
            throw new IllegalStateException("server on port " + port + " not UP within 60 s");
          }
          Thread.sleep(100);
        }
      }
      balancer.awaitServersUp(Duration.ofSeconds(30)); // each check passed twice (rise 2)
    }

    ConsumerProcess startConsumer(String... extraArgs) throws Exception {
      ConsumerProcess p = launchConsumer(extraArgs);
      p.awaitConsuming(amqp);
      return p;
    }

    private ConsumerProcess launchConsumer(String... extraArgs) throws IOException {
      List<String> args = new ArrayList<>(List.of("--metrics-port", "-1")); // several at once
      args.addAll(List.of(extraArgs));
      ConsumerProcess p =
          ConsumerProcess.launch(
              name + "-consumer-" + (consumers.size() + 1),
              amqp,
              db,
              // The queue is declared by whichever side starts first, with the same arguments.
              Map.of(
                  CommonSettings.QUORUM_GROUP_SIZE.variable(),
                  Integer.toString(amqp.quorumGroupSize())),
              args.toArray(String[]::new));
      consumers.add(p);
      return p;
    }

    /** 16 writers through the balancer, paced so that the run lasts a few seconds. */
    WriteLoad load() {
      return load(40, 100);
    }

    WriteLoad load(int iterations, long pauseMillis) {
      api = new ApiClient(balancerUrl(), 32, Timeout.ofSeconds(15));
      return new WriteLoad(api, runId, 16, iterations, pauseMillis, Duration.ofSeconds(90), null)
          .start();
    }

    record End(Audit.Result audit, long redeliveries, LoadStats stats) {
      String line(String scenario) {
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
    End finish(WriteLoad load) throws Exception {
      try (Audit audit = new Audit(load.ledger(), amqp, db)) {
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
      if (api != null) {
        api.close();
      }
    }
  }
}
