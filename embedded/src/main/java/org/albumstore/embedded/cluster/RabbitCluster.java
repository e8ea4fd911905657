package org.albumstore.embedded.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RabbitMQ cluster of {@link RabbitNode}s of the installed RabbitMQ on loopback: the local
 * stand-in for Amazon MQ's cluster deployment (three nodes, quorum queues). The machine's own node
 * ({@code rabbit@localhost}) never joins: every node has a name unique to this run, its own ports,
 * files and a cookie shared only within the cluster.
 *
 * <p>How it forms: each node starts on its own, then every node after the first runs {@code
 * stop_app}, {@code join_cluster FIRST}, {@code start_app} (RabbitMQ's clustering guide's manual
 * way; peer discovery would need every node's name in every config before any starts).
 *
 * <p>Partition handling is {@code pause_minority}, as Amazon MQ sets it for its cluster brokers: a
 * node that finds itself in the minority stops serving rather than accepting writes that the
 * majority will never see.
 *
 * <p>Each node's outgoing distribution connections leave from a loopback address of its own, so
 * that {@link #isolate} can cut exactly this cluster's links with {@link Partition}; the nodes
 * still listen on 127.0.0.1, where their {@code @localhost} names and {@code rabbitmqctl} reach
 * them.
 */
public final class RabbitCluster implements AutoCloseable {
  /** How long one query of a node's view waits for {@code rabbitmqctl}. */
  static final Duration QUERY_LIMIT = Duration.ofSeconds(15);

  private static final Logger log = LoggerFactory.getLogger(RabbitCluster.class);

  /** Amazon MQ's partition handling for RabbitMQ cluster deployments. */
  public static final String PARTITION_HANDLING = "pause_minority";

  /**
   * Seconds without any traffic after which a node counts a peer as down (Erlang's {@code
   * net_ticktime}, 60 by default): a silent partition ({@link Partition}) is noticed after 0.75 to
   * 1.25 times this. A crash or a stop is noticed at once either way (the connection closes).
   */
  public static final int NET_TICKTIME_SECONDS = 10;

  /**
   * Each node's disk free limit, low: the machine is shared, and other runs filling the disk must
   * not raise a disk alarm; a test that plays one raises the limit and restores this.
   */
  public static final String DISK_FREE_LIMIT = "50MB";

  private final String name;
  private final List<RabbitNode> nodes;
  private final List<Integer> amqpPorts;
  private final List<String> sourceAddresses;

  /** The first node's management API port, or 0 without one. */
  private final int managementPort;

  private RabbitCluster(
      String name,
      List<RabbitNode> nodes,
      List<Integer> amqpPorts,
      List<String> sourceAddresses,
      int managementPort) {
    this.name = name;
    this.managementPort = managementPort;
    this.nodes = new java.util.concurrent.CopyOnWriteArrayList<>(nodes);
    this.amqpPorts = List.copyOf(amqpPorts);
    this.sourceAddresses = List.copyOf(sourceAddresses);
  }

  /** True when RabbitMQ is installed here (its server and its control tool). */
  public static boolean installed() {
    return RabbitNode.installation().isPresent();
  }

  /**
   * True when RabbitMQ {@code release} is here: {@link Engines#INSTALLED}, or a version whose root
   * {@code embedded/engines.sh ensure} has made.
   */
  public static boolean installed(String release) {
    return RabbitNode.installation(Engines.system().withRabbitmq(release)).isPresent();
  }

  /**
   * Starts {@code size} nodes named {@code prefix-1@localhost} ... under {@code dir} and clusters
   * them.
   *
   * @throws IllegalStateException when RabbitMQ is not installed or a node does not start or join
   */
  public static RabbitCluster start(String prefix, int size, Path dir)
      throws IOException, InterruptedException {
    return start(prefix, size, dir, false);
  }

  /**
   * As {@link #start(String, int, Path)}; with {@code managementApi}, the first node also serves
   * RabbitMQ's management API on a free loopback port ({@link #managementApi()}): the cluster's
   * queues and rates, as Amazon MQ's console has them.
   */
  public static RabbitCluster start(String prefix, int size, Path dir, boolean managementApi)
      throws IOException, InterruptedException {
    return start(prefix, size, dir, managementApi, Engines.system());
  }

  /**
   * As {@link #start(String, int, Path)}, every node of RabbitMQ {@code release} ({@link
   * Engines#INSTALLED} or a version the root offers, see {@link #installed(String)}) whatever
   * {@link Engines} chooses for the JVM's other nodes: two clusters of two releases side by side,
   * as a broker blue/green has them.
   */
  public static RabbitCluster start(String prefix, int size, Path dir, String release)
      throws IOException, InterruptedException {
    return start(prefix, size, dir, false, Engines.system().withRabbitmq(release));
  }

  private static RabbitCluster start(
      String prefix, int size, Path dir, boolean managementApi, Engines engines)
      throws IOException, InterruptedException {
    if (size < 1) {
      throw new IllegalArgumentException("a cluster needs at least one node, not " + size);
    }
    String cookie = "albumstore-cluster-" + UUID.randomUUID();
    List<RabbitNode> nodes = new ArrayList<>();
    List<Integer> ports = new ArrayList<>();
    // 127.0.0.0/8 is all loopback: node i's links leave from 127.0.<net>.(11+i), a /24 picked at
    // random per cluster (not 127.0.0.x, where the machine's own services live).
    int net = 1 + java.util.concurrent.ThreadLocalRandom.current().nextInt(254);
    List<String> sources = new ArrayList<>();
    int managementPort = managementApi ? RabbitNode.freePort() : 0;
    try {
      for (int i = 1; i <= size; i++) {
        String source = "127.0." + net + "." + (10 + i);
        Member m = startMember(prefix, i, dir, managementPort, engines, cookie, source);
        RabbitNode node = m.node();
        managementPort = m.managementPort();
        nodes.add(node);
        ports.add(m.port());
        sources.add(source);
        if (i > 1) {
          node.ctl("stop_app");
          node.ctl("join_cluster", nodes.get(0).nodeName());
          startJoined(node);
        }
      }
      RabbitCluster cluster = new RabbitCluster(prefix, nodes, ports, sources, managementPort);
      log.info("RabbitMQ cluster of {} node(s) on ports {}", size, ports);
      return cluster;
    } catch (IOException | RuntimeException | InterruptedException e) {
      for (RabbitNode n : nodes) {
        closeQuietly(n);
      }
      throw e;
    }
  }

  /** How often a joined node's {@code start_app} is tried when it meets {@link #DENY_RACE}. */
  private static final int JOINED_START_ATTEMPTS = 3;

  /**
   * RabbitMQ 4.0.5's refusal to start a node that has just joined, on a busy machine: its check
   * that no transient non-exclusive queue exists (before denying them, {@link
   * #RABBITMQ_4_REFUSALS}) reads the queue table before the join has copied it, fails with {@code
   * no_exists}, and counts that as "in use" (seen in the node's log). Nothing is in use: a second
   * {@code start_app} finds the table and starts.
   */
  static final String DENY_RACE = "failed_to_deny_deprecated_features";

  /** {@code start_app} of a node that has just joined, again (bounded) after {@link #DENY_RACE}. */
  private static void startJoined(RabbitNode node) throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        node.ctl("start_app");
        return;
      } catch (IOException e) {
        if (attempt == JOINED_START_ATTEMPTS
            || !String.valueOf(e.getMessage()).contains(DENY_RACE)) {
          throw e;
        }
        log.warn(
            "{}: start_app after the join met RabbitMQ's {}; again", node.nodeName(), DENY_RACE);
        Thread.sleep(1_000L * attempt);
      }
    }
  }

  private record Member(RabbitNode node, int port, int managementPort) {}

  /** Starts of a member whose port was taken between its choice and the node's listen. */
  private static final int PORT_ATTEMPTS = 3;

  /**
   * Member {@code i} on free ports: a port is free when chosen and bound by the node seconds later,
   * so another process may take it in between (seen: {@code eaddrinuse} on a CI run that starts
   * many nodes and JVMs at once). Such a start is tried again on fresh ports, at most {@link
   * #PORT_ATTEMPTS} times.
   */
  private static Member startMember(
      String prefix,
      int i,
      Path dir,
      int managementPort,
      Engines engines,
      String cookie,
      String source)
      throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      int port = RabbitNode.freePort();
      RabbitNode.Builder builder = RabbitNode.builder(prefix + "-" + i, dir.resolve("node-" + i));
      if (i == 1 && managementPort > 0) {
        builder
            .plugins("rabbitmq_management")
            .config("management.tcp.ip = 127.0.0.1", "management.tcp.port = " + managementPort);
      } else if (managementPort > 0) {
        // A queue's figures come from its leader's node: every node needs the agent.
        builder.plugins("rabbitmq_management_agent");
      }
      try {
        RabbitNode node = startMember(builder.rabbitmq(engines.rabbitmq()), cookie, source, port);
        return new Member(node, port, managementPort);
      } catch (IllegalStateException e) {
        if (attempt == PORT_ATTEMPTS || !String.valueOf(e.getMessage()).contains("eaddrinuse")) {
          throw e;
        }
        log.warn(
            "{}-{}: a port was taken before the node listened; again on fresh ports", prefix, i);
        managementPort = i == 1 && managementPort > 0 ? RabbitNode.freePort() : managementPort;
      }
    }
  }

  /** One member: the cluster's cookie, its own source address and AMQP port, the shared config. */
  private static RabbitNode startMember(
      RabbitNode.Builder builder, String cookie, String source, int port)
      throws IOException, InterruptedException {
    boolean fromRoot = builder.engines().rabbitmqFromRoot();
    return builder
        .cookie(cookie)
        .distSourceAddress(source)
        .config(
            "listeners.tcp.default = 127.0.0.1:" + port,
            "cluster_partition_handling = " + PARTITION_HANDLING,
            "net_ticktime = " + NET_TICKTIME_SECONDS,
            // The machine is shared: no disk alarm because other runs fill the disk.
            "disk_free_limit.absolute = " + DISK_FREE_LIMIT,
            // Queue counts in the management API within a second of a queue's start (5 s
            // by default): a cluster here lives for one short run, and its report reads
            // the queue's depth at the end of the load.
            "collect_statistics_interval = 1000")
        .config(fromRoot ? RABBITMQ_4_REFUSALS : new String[0])
        .start();
  }

  /**
   * On RabbitMQ 4, what 4.3 removes and 4.0 already lets a node refuse is refused here: transient
   * non-exclusive queues. A node of 4.0 then closes the channel that declares one, so every test on
   * it shows that nothing of ours does. (4.3 also refuses {@code basic.qos} with {@code
   * global=true}, which 4.0 cannot be told to refuse: the consumer's prefetch is per consumer, the
   * client's one-argument {@code basicQos}. 3.x knows no such key and would not boot with it.)
   */
  static final String[] RABBITMQ_4_REFUSALS = {
    "deprecated_features.permit.transient_nonexcl_queues = false"
  };

  /** The management API's base URL ({@code http://127.0.0.1:PORT}), when started with one. */
  public Optional<String> managementApi() {
    return managementPort > 0
        ? Optional.of("http://127.0.0.1:" + managementPort)
        : Optional.empty();
  }

  public List<RabbitNode> nodes() {
    return List.copyOf(nodes);
  }

  /** The node named {@code nodeName} (e.g. a queue's leader). */
  public int indexOf(String nodeName) {
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i).nodeName().equals(nodeName)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no node " + nodeName + " in this cluster");
  }

  /** {@code kill -9} of node {@code i}: a crash, no clean leave. */
  public void kill(int i) throws InterruptedException {
    nodes.get(i).kill();
  }

  /** Stops node {@code i} cleanly ({@code rabbitmqctl stop}), as a maintenance restart does. */
  public void stop(int i) throws IOException, InterruptedException {
    nodes.get(i).close();
  }

  /** SIGSTOP of node {@code i} (see {@link RabbitNode#pause}), until {@link #resume}. */
  public void pause(int i) throws IOException, InterruptedException {
    nodes.get(i).pause();
  }

  /** SIGCONT of node {@code i}. */
  public void resume(int i) throws IOException, InterruptedException {
    nodes.get(i).resume();
  }

  /** Starts node {@code i} again after a kill or stop; it rejoins with its data. */
  public void restart(int i) throws IOException, InterruptedException {
    nodes.set(i, nodes.get(i).restart());
  }

  /**
   * Cuts node {@code i} off from every other node (a silent partition, see {@link Partition}) until
   * the returned partition is closed. With {@value #PARTITION_HANDLING} the isolated node pauses
   * itself once it sees the others down (after about {@value #NET_TICKTIME_SECONDS} s); the others
   * carry on.
   *
   * @throws IllegalStateException when iptables is missing; call {@link Partition#unavailable}
   *     first
   */
  public Partition isolate(int i) throws IOException, InterruptedException {
    Partition p = Partition.create(name);
    try {
      RabbitNode alone = nodes.get(i);
      for (int j = 0; j < nodes.size(); j++) {
        if (j != i) {
          p.cut(sourceAddress(i), alone.distPort(), sourceAddress(j), nodes.get(j).distPort());
        }
      }
    } catch (IOException | RuntimeException | InterruptedException e) {
      p.close();
      throw e;
    }
    log.info("node {} isolated from the others: {}", nodes.get(i).nodeName(), p.activeRules());
    return p;
  }

  /** The loopback address node {@code i}'s distribution connections leave from. */
  public String sourceAddress(int i) {
    return sourceAddresses.get(i);
  }

  /**
   * The nodes that node {@code i} sees running (its {@code cluster_status}), by name; an {@link
   * IOException} when the node does not answer within {@link #QUERY_LIMIT}. Bounded short so that a
   * caller's wait asks again: a node pausing or restarting its applications after a partition can
   * hold one query for a minute (an engines-pass CI run spent ClusterFaultsIT's whole wait on one).
   */
  public List<String> runningNodesSeenBy(int i) throws IOException, InterruptedException {
    String out = nodes.get(i).ctl(QUERY_LIMIT, "eval", "rabbit_nodes:all_running().");
    return Stream.of(out.replaceAll("[\\[\\]'\\s]", "").split(","))
        .filter(n -> !n.isBlank())
        .toList();
  }

  /** The AMQP port of node {@code i} (0-based). */
  public int amqpPort(int i) {
    return amqpPorts.get(i);
  }

  public List<Integer> amqpPorts() {
    return amqpPorts;
  }

  /** {@code 127.0.0.1:p1,127.0.0.1:p2,...}: the value of ALBUMSTORE_AMQP_ADDRESSES. */
  public String addresses() {
    return amqpPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
  }

  /** The URI of node {@code i} with the stock credentials (loopback only, as the guest user). */
  public String uri(int i) {
    return "amqp://guest:guest@127.0.0.1:" + amqpPort(i) + "/%2F";
  }

  /**
   * The node that leads quorum queue {@code queue}, asked of any running node, or empty when none
   * answers or the queue has no leader now.
   */
  public Optional<String> leaderOf(String queue) {
    return Optional.ofNullable(leaders().get(queue));
  }

  /**
   * Every queue's leader node, by queue name, asked of the first running node that answers (one
   * {@code rabbitmqctl list_queues}); empty when none answers.
   */
  public Map<String, String> leaders() {
    for (RabbitNode n : nodes) {
      try {
        String out = n.ctl("list_queues", "-q", "--no-table-headers", "name", "leader");
        Map<String, String> leaders = new HashMap<>();
        for (String line : out.split("\\R")) {
          String[] f = line.trim().split("\\s+");
          if (f.length == 2) {
            leaders.put(f[0], f[1]);
          }
        }
        return leaders;
      } catch (IOException e) {
        log.debug("{} cannot list queues: {}", n.nodeName(), e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Map.of();
      }
    }
    return Map.of();
  }

  /** The members of quorum queue {@code queue} as the first answering node sees them. */
  public List<String> membersOf(String queue) throws IOException, InterruptedException {
    IOException last = null;
    for (RabbitNode n : nodes) {
      try {
        String out = n.ctl("list_queues", "-q", "--no-table-headers", "name", "members");
        for (String line : out.split("\\R")) {
          String t = line.trim();
          if (t.startsWith(queue + " ") || t.startsWith(queue + "\t")) {
            String list = t.substring(queue.length()).trim();
            return List.of(list.replaceAll("[\\[\\]']", "").split("\\s*,\\s*"));
          }
        }
        return List.of();
      } catch (IOException e) {
        last = e;
      }
    }
    throw last != null ? last : new IOException("no node");
  }

  /**
   * Stops every node, all at once, and returns when each has stopped: bounded by one node's own
   * stop ({@link RabbitNode#close}), not by their sum. Nothing restarts a closed cluster, so the
   * order in which its members leave does not matter.
   */
  @Override
  public void close() {
    List<Thread> stoppers = new ArrayList<>();
    for (RabbitNode n : nodes) {
      Thread t = new Thread(() -> closeQuietly(n), "rabbit-cluster-stop-" + n.nodeName());
      t.start();
      stoppers.add(t);
    }
    boolean interrupted = false;
    for (Thread t : stoppers) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true; // the stop is what an interrupt asks for anyway: keep waiting
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(RabbitNode n) {
    try {
      n.close();
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      log.warn("could not stop RabbitMQ node {}: {}", n.nodeName(), e.toString());
    }
  }
}
