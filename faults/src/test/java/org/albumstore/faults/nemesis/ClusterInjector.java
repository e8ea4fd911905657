package org.albumstore.faults.nemesis;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.albumstore.embedded.cluster.Partition;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.albumstore.embedded.cluster.RabbitNode;
import org.albumstore.faults.harness.ClusterStack;
import org.albumstore.faults.harness.ClusterWorld;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Release;

/**
 * Every {@link FaultKind} on the cluster topology: the nodes of a {@link ClusterStack}, the servers
 * and consumers of a {@link ClusterWorld}. Each heal is safe to repeat, so that the nemesis can
 * heal at close whatever a failure or an interrupt left broken.
 */
public final class ClusterInjector implements Nemesis.Injector {
  /** RabbitMQ's default high watermark, restored when a memory alarm is healed. */
  private static final String DEFAULT_WATERMARK = "0.4";

  private static final Duration SUPERVISED_START = Duration.ofSeconds(90);

  /**
   * A disk alarm's limit: this much above the free space, so that neither writes nor what is
   * deleted meanwhile can clear it (1 GiB was not enough at 1,000 writes/s: a failover's heal
   * removes an old standby's data directory, and the alarm was not raised within its bound).
   */
  private static final long FULL_DISK_MARGIN = 16L << 30;

  /** How long each insert statement sleeps during a {@link FaultKind#SLOW_DATABASE}. */
  static final int SLOW_STATEMENT_SECONDS = 1;

  /**
   * How long a node may take to raise or clear an alarm once its limit has been changed: its disk
   * and memory monitors run every few seconds, but on a 2-core machine saturated by 1,000 writes/s
   * (and a paused or restarting peer) one check was seen to take over 30 s.
   */
  private static final Duration ALARM_LIMIT = Duration.ofSeconds(90);

  /**
   * How long an alarm lane waits for the alarm before it sets the limit again: a limit set with
   * {@code rabbitmqctl} lives until the node restarts, and another lane may restart the node in
   * between (seen at 1,000 writes/s: a broker lane's rejoin restart just after the disk limit was
   * set, and no alarm in 90 s).
   */
  private static final Duration ALARM_RETRY = Duration.ofSeconds(20);

  /** How long after its first attempt an alarm lane still waits out a node kept away. */
  private static final Duration ALARM_AWAY_LIMIT = Duration.ofSeconds(300);

  private static final Duration NODE_BACK_LIMIT = Duration.ofSeconds(120);

  private final ClusterStack cluster;
  private final RabbitCluster brokers;
  private final ClusterWorld world;
  private final List<ConsumerProcess> consumers;
  private final Map<Fault, Partition> partitions = new ConcurrentHashMap<>();
  private final Map<Fault, ConsumerProcess> addedConsumers = new ConcurrentHashMap<>();
  private final SlowQueries slowQueries;

  /**
   * @param consumers the running consumers, by index: a killed one is replaced in this list by the
   *     one its heal starts
   */
  public ClusterInjector(
      ClusterStack cluster, ClusterWorld world, List<ConsumerProcess> consumers) {
    this.cluster = cluster;
    this.brokers = cluster.brokers();
    this.world = world;
    this.consumers = new ArrayList<>(consumers);
    this.slowQueries = new SlowQueries(cluster.db(), SLOW_STATEMENT_SECONDS);
  }

  /** Consumer {@code i} as this injector knows it: the one a kill of {@code i} would hit. */
  public ConsumerProcess consumer(int i) {
    return consumers.get(i);
  }

  /**
   * Consumer {@code i} is {@code replacement} from now on (an upgrade replaced it): a later kill of
   * {@code i}, and its heal, act on it. The caller keeps this from racing a kill or heal of the
   * same consumer.
   */
  public void replacedConsumer(int i, ConsumerProcess replacement) {
    consumers.set(i, replacement);
  }

  /** How many instances of each tier a schedule may pick from. */
  public Map<FaultKind.Tier, Integer> instances() {
    return Map.of(
        FaultKind.Tier.BROKER, brokers.nodes().size(),
        FaultKind.Tier.SERVER, world.servers().size(),
        FaultKind.Tier.CONSUMER, consumers.size(),
        FaultKind.Tier.SCALE, 1,
        FaultKind.Tier.DATABASE, cluster.failoverDatabase().isPresent() ? 1 : 0,
        FaultKind.Tier.DISK, brokers.nodes().size(),
        // Never on the shared test database: the trigger would slow every other test's writes.
        FaultKind.Tier.DATABASE_SPEED, cluster.failoverDatabase().isPresent() ? 1 : 0);
  }

  @Override
  public void inject(Fault f) throws Exception {
    int i = f.target();
    switch (f.kind()) {
      case NODE_KILL -> brokers.kill(i);
      case NODE_PAUSE -> brokers.pause(i);
      case PARTITION -> partitions.put(f, brokers.isolate(i));
      case MEMORY_ALARM ->
          setUntilAlarm(
              i, "memory", true, () -> new String[] {"set_vm_memory_high_watermark", "0"});
      case SERVER_KILL -> world.servers().get(i).kill();
      case SERVER_TERM -> world.servers().get(i).stop();
      case CONSUMER_KILL -> consumers.get(i).kill();
      case SERVER_ADD -> world.addServer();
      case CONSUMER_ADD ->
          addedConsumers.put(f, world.startConsumerSupervised(Release.current(), SUPERVISED_START));
      case DB_FAILOVER -> cluster.failoverDatabase().orElseThrow().failover();
      case DISK_ALARM -> {
        RabbitNode node = brokers.nodes().get(i);
        setUntilAlarm(
            i,
            "disk",
            true,
            () -> {
              long free = Files.getFileStore(node.dir()).getUsableSpace();
              return new String[] {"set_disk_free_limit", Long.toString(free + FULL_DISK_MARGIN)};
            });
      }
      case SLOW_DATABASE -> slowQueries.slow();
    }
  }

  @Override
  public void heal(Fault f) throws Exception {
    int i = f.target();
    switch (f.kind()) {
      case NODE_KILL -> restartIfDown(i);
      case NODE_PAUSE -> {
        if (brokers.nodes().get(i).isRunning()) {
          // SIGCONT returns at once; the node is back when it runs in the cluster again (a pause
          // past net_ticktime makes the others drop it, and pause_minority then pauses it a while).
          brokers.resume(i);
          cluster.rejoinAfterHeal(i);
        } else {
          // A runbook restart that failed took the paused VM away: nothing to resume.
          restartIfDown(i);
        }
      }
      case PARTITION -> healPartition(f);
      case MEMORY_ALARM ->
          setUntilAlarm(
              i,
              "memory",
              false,
              () -> new String[] {"set_vm_memory_high_watermark", DEFAULT_WATERMARK});
      case SERVER_KILL, SERVER_TERM -> {
        if (!world.servers().get(i).isAlive()) {
          world.restartServer(i);
        }
      }
      case CONSUMER_KILL -> {
        ConsumerProcess killed = consumers.get(i);
        if (!killed.isAlive()) {
          consumers.set(i, world.startConsumerSupervised(killed.release(), SUPERVISED_START));
        }
      }
      case SERVER_ADD -> world.removeAddedServer();
      case CONSUMER_ADD -> {
        ConsumerProcess c = addedConsumers.remove(f);
        if (c != null && c.isAlive()) {
          c.terminate(Duration.ofSeconds(30));
        }
      }
      case DB_FAILOVER -> cluster.failoverDatabase().orElseThrow().rebuildStandby();
      case DISK_ALARM ->
          setUntilAlarm(
              i,
              "disk",
              false,
              () -> new String[] {"set_disk_free_limit", RabbitCluster.DISK_FREE_LIMIT});
      case SLOW_DATABASE -> slowQueries.heal();
    }
  }

  /** The {@code rabbitmqctl} arguments that set a limit, worked out at each attempt. */
  @FunctionalInterface
  private interface Limit {
    String[] ctlArgs() throws IOException;
  }

  /**
   * Sets {@code limit} on node {@code i} until its {@code resource} alarm is {@code raised} (or
   * cleared), setting it again every {@link #ALARM_RETRY}, within {@link #ALARM_LIMIT} of the
   * node's rabbit app running: while another lane keeps the node killed, paused or cut off, the
   * bound starts again (seen at 1,000 writes/s: a node paused, cut off and killed in turn for 110
   * s, and the disk lane's 90 s spent on a node that had no alarm process). Past {@link
   * #ALARM_AWAY_LIMIT} from the first attempt the bound no longer starts again.
   */
  private void setUntilAlarm(int i, String resource, boolean raised, Limit limit) throws Exception {
    long start = System.nanoTime();
    long deadline = start + ALARM_LIMIT.toNanos();
    while (true) {
      setOnNode(i, limit.ctlArgs());
      Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
      try {
        cluster.awaitAlarm(
            i, resource, raised, left.compareTo(ALARM_RETRY) < 0 ? left : ALARM_RETRY);
        return;
      } catch (IllegalStateException notYet) {
        long now = System.nanoTime();
        if (!cluster.appRunning(i) && now - start < ALARM_AWAY_LIMIT.toNanos()) {
          deadline = now + ALARM_LIMIT.toNanos();
        }
        if (now >= deadline) {
          throw notYet;
        }
      }
    }
  }

  /**
   * A runtime setting of node {@code i} ({@code rabbitmqctl}), which needs the node's rabbit app
   * running: another lane may have killed, paused or cut off that node a moment before, so this
   * retries until the node takes it, within {@link #NODE_BACK_LIMIT} (a node's own heal brings it
   * back well within that). A node restarted meanwhile lost its runtime settings anyway: setting
   * one again is what the fault or its heal wants.
   */
  private void setOnNode(int i, String... ctlArgs) throws Exception {
    long deadline = System.nanoTime() + NODE_BACK_LIMIT.toNanos();
    while (true) {
      try {
        brokers.nodes().get(i).ctl(ctlArgs);
        return;
      } catch (IOException notRunning) {
        if (System.nanoTime() > deadline) {
          throw notRunning;
        }
        Thread.sleep(1_000);
      }
    }
  }

  private void restartIfDown(int i) throws Exception {
    if (!brokers.nodes().get(i).isRunning()) {
      brokers.restart(i);
    }
    cluster.awaitAmqpListener(i, true, Duration.ofSeconds(90));
    // Listening is not yet clustered: the heal ends when the node sees every node running.
    cluster.awaitRunningNodes(i, Duration.ofSeconds(90), System.nanoTime());
  }

  /**
   * Removes the rules, then waits for the node to resume and rejoin (restarted if it does not:
   * {@link ClusterStack#rejoinAfterHeal}).
   */
  private void healPartition(Fault f) throws Exception {
    Partition cut = partitions.remove(f);
    if (cut != null) {
      cut.close();
    }
    cluster.rejoinAfterHeal(f.target());
  }
}
