package org.albumstore.faults.bluegreen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.cluster.HaProxy;
import org.albumstore.faults.harness.ClusterStack;
import org.albumstore.faults.harness.ClusterWorld;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.nemesis.BacklogProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The procedure of a broker blue/green, Amazon MQ's way when an in-place engine upgrade is refused,
 * on a {@link ClusterWorld} whose servers and consumers run on blue, step by step, each step
 * journalled ({@link Step}) with the backlogs of both brokers sampled throughout:
 *
 * <ol>
 *   <li>everything on blue, the load running;
 *   <li>consumers started on green: they declare the same queue there, and the commits exchange the
 *       servers' read feeds bind to once they move;
 *   <li>each server in turn drained (SIGTERM: its health says DRAINING, the balancer takes it out,
 *       its requests in flight finish, each with its confirm from blue) and started on the same
 *       port with green's address, then awaited in the rotation;
 *   <li>blue's consumers go on until blue holds nothing of the stream, ready or unacknowledged,
 *       then stop on SIGTERM (each finishes and acknowledges its batch);
 *   <li>blue shut down; the load goes on against green.
 * </ol>
 *
 * <p>What "nothing lost" depends on: no server publishes to blue after step 3 (each was stopped
 * before it moved, and a stop waits for its confirms), so blue's stream only shrinks from then on,
 * and step 4 shuts nothing down before blue's own count of its messages, unacknowledged ones
 * included ({@link QueueLevels}), is zero. A write that reached both brokers (a retry of one whose
 * first attempt timed out on blue) is applied once by the ledger, whichever consumer comes second.
 * The read path needs no broker of the writer's: a read parked for an album waits for the
 * consumers' announcement or, failing that, finds the album by polling the database, so a server on
 * green reads what blue's consumers apply.
 *
 * <p>One thread (the test's) plays the steps; the probes sample on their own threads. The consumers
 * started on green belong to this class: {@link #close} stops them.
 */
public final class BlueGreenSwitch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BlueGreenSwitch.class);

  /** How long blue's consumers may take to empty blue once no server publishes there. */
  private static final Duration BLUE_DRAIN_LIMIT = Duration.ofMinutes(5);

  private static final Duration CONSUMER_STOP_LIMIT = Duration.ofSeconds(60);

  /** How long a queue's leader may take to see its stopped consumers' channels gone. */
  public static final Duration SETTLE_LIMIT = Duration.ofSeconds(30);

  /** How long the load may take to get its first answer (the client's JVM starting). */
  private static final Duration LOAD_START_LIMIT = Duration.ofSeconds(120);

  /**
   * One step: what was done, from when to when ({@link System#nanoTime}), and how it went.
   *
   * @param note what the step found (exit codes, levels), for the journal
   */
  public record Step(String name, long startNanos, long endNanos, String note) {}

  /**
   * When the steps come.
   *
   * @param warmUp how long everything stays on blue once the load's first request was answered:
   *     long enough, in a measured run, for the client to reach its schedule, so that the switch is
   *     not charged with the start's backlog
   * @param dwell how long each later step's outcome is left to run before the next step
   */
  public record Pacing(Duration warmUp, Duration dwell) {}

  private final ClusterWorld world;
  private final HaProxy balancer;
  private final BrokerSide blue;
  private final BrokerSide green;
  private final List<ConsumerProcess> blueConsumers;
  private final DatabaseSettings db;
  private final Pacing pacing;
  private final List<Step> steps = new ArrayList<>();
  private final List<ConsumerProcess> greenConsumers = new ArrayList<>();
  private final List<String> reads = new ArrayList<>();
  private final long originNanos = System.nanoTime();
  private final long originEpochMillis = System.currentTimeMillis();
  private final BacklogProbe blueBacklog;
  private final BacklogProbe greenBacklog;
  private QueueLevels blueAtShutdown;

  /**
   * Starts sampling both brokers' backlogs now.
   *
   * @param stack blue's topology: its balancer (whose answers say the load runs) and its database
   * @param pacing when the steps come
   */
  public BlueGreenSwitch(
      ClusterStack stack,
      ClusterWorld world,
      BrokerSide blue,
      BrokerSide green,
      List<ConsumerProcess> blueConsumers,
      Pacing pacing) {
    this.world = world;
    this.balancer = stack.balancer();
    this.blue = blue;
    this.green = green;
    this.blueConsumers = List.copyOf(blueConsumers);
    this.db = stack.db();
    this.pacing = pacing;
    this.blueBacklog = BacklogProbe.start(blue.amqp());
    this.greenBacklog = BacklogProbe.start(green.amqp());
  }

  /** The moment the steps' and the probes' times count from. */
  public long originNanos() {
    return originNanos;
  }

  /** {@link #originNanos} on the wall clock, to put the steps on the history's time line. */
  public long originEpochMillis() {
    return originEpochMillis;
  }

  /**
   * Plays the steps: the first for the warm-up from the load's first answer, each other followed by
   * the dwell; returns them in order.
   */
  public List<Step> play() throws Exception {
    long t = System.nanoTime();
    awaitLoad();
    Thread.sleep(pacing.warmUp().toMillis());
    journal(
        "1 everything on blue",
        t,
        blueConsumers.size() + " consumers, " + world.servers().size() + " servers on blue");
    startGreenConsumers();
    for (int i = 0; i < world.servers().size(); i++) {
      moveServer(i);
    }
    drainBlue();
    shutBlueDown();
    t = System.nanoTime();
    steps.add(new Step("6 green alone", t, t, "the load goes on against green to its end"));
    return List.copyOf(steps);
  }

  /** Until the balancer has answered a first request: the client's JVM takes seconds to start. */
  private void awaitLoad() throws Exception {
    long deadline = System.nanoTime() + LOAD_START_LIMIT.toNanos();
    long before = answered();
    while (answered() == before) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no request answered within " + LOAD_START_LIMIT);
      }
      Thread.sleep(100);
    }
  }

  private long answered() throws Exception {
    return balancer.serverResponses().values().stream().mapToLong(Long::longValue).sum();
  }

  private void startGreenConsumers() throws Exception {
    long t = System.nanoTime();
    Map<String, String> env =
        Map.of(
            CommonSettings.QUORUM_GROUP_SIZE.variable(),
            Integer.toString(green.amqp().quorumGroupSize()));
    for (int i = 0; i < blueConsumers.size(); i++) {
      greenConsumers.add(
          ConsumerProcess.launch("bluegreen-green-consumer-" + (i + 1), green.amqp(), db, env));
    }
    for (ConsumerProcess c : greenConsumers) {
      c.awaitConsuming(green.amqp());
    }
    journal("2 consumers on green", t, greenConsumers.size() + " consuming the queue on green");
    Thread.sleep(pacing.dwell().toMillis());
  }

  private void moveServer(int i) throws Exception {
    long t = System.nanoTime();
    scrapeReads(i, "on blue, at its move");
    int exit = world.servers().get(i).stop(); // not ready, out of the balancer, in-flight done
    if (exit != 0 && exit != 143) {
      throw new IllegalStateException("server " + (i + 1) + " exit " + exit + " after SIGTERM");
    }
    world.restartServer(i, green.amqp());
    journal(
        "3 server-" + (i + 1) + " to green",
        t,
        "drained and stopped (exit " + exit + "), started on green, in the rotation");
    Thread.sleep(pacing.dwell().toMillis());
  }

  private void drainBlue() throws Exception {
    long t = System.nanoTime();
    QueueLevels drained = QueueLevels.awaitDrained(blue.nodes(), blue.amqp(), BLUE_DRAIN_LIMIT);
    long drainedAt = System.nanoTime();
    List<String> stops = new ArrayList<>();
    for (ConsumerProcess c : blueConsumers) {
      int exit = c.terminate(CONSUMER_STOP_LIMIT);
      long applied = c.stoppedCounter("messagesApplied");
      if ((exit != 0 && exit != 143) || applied < 0) {
        throw new IllegalStateException(
            "a blue consumer did not stop cleanly (exit " + exit + "):\n" + c.tail());
      }
      stops.add("exit " + exit + ", " + applied + " applied");
    }
    blueAtShutdown = QueueLevels.awaitSettled(blue.nodes(), blue.amqp(), SETTLE_LIMIT);
    scrapeReads("on green, once blue's consumers stopped");
    journal(
        "4 blue drained, its consumers stopped",
        t,
        String.format(
            "found empty %.1f s into the step (%s); consumers %s; then %s",
            (drainedAt - t) / 1e9, drained, stops, blueAtShutdown));
    Thread.sleep(pacing.dwell().toMillis());
  }

  private void shutBlueDown() throws InterruptedException {
    long t = System.nanoTime();
    blueBacklog.close(); // nothing to sample from now on
    blue.nodes().close();
    journal("5 blue shut down", t, "its " + blue.nodes().nodes().size() + " nodes stopped");
  }

  /**
   * Each server's {@link ReadWaits} now, {@code when} naming the moment: the read path's own
   * account of how its reads of new albums were answered.
   */
  public void scrapeReads(String when) {
    for (int i = 0; i < world.servers().size(); i++) {
      scrapeReads(i, when);
    }
  }

  private void scrapeReads(int i, String when) {
    String label = "server-" + (i + 1) + " " + when;
    try {
      reads.add(ReadWaits.of(label, world.servers().get(i)).toString());
    } catch (Exception e) {
      reads.add(label + ": metrics unavailable (" + e + ")");
    }
  }

  /** What {@link #scrapeReads} found, in order. */
  public List<String> reads() {
    return List.copyOf(reads);
  }

  /** Blue's levels just before its shutdown, its consumers stopped: what the shutdown dropped. */
  public QueueLevels blueAtShutdown() {
    return blueAtShutdown;
  }

  /**
   * Ready messages on each broker through the run; the probes' times count from their start, within
   * a millisecond of {@link #originNanos}.
   */
  public List<BacklogProbe.Sample> backlog(BrokerSide side) {
    return (side == blue ? blueBacklog : greenBacklog).samples();
  }

  public BrokerSide blue() {
    return blue;
  }

  public BrokerSide green() {
    return green;
  }

  public List<ConsumerProcess> greenConsumers() {
    return List.copyOf(greenConsumers);
  }

  private void journal(String name, long startNanos, String note) {
    Step s = new Step(name, startNanos, System.nanoTime(), note);
    steps.add(s);
    log.info("blue/green step {}: {} ({} ms)", name, note, (s.endNanos() - startNanos) / 1_000_000);
  }

  /** Stops the probes and green's consumers (SIGTERM, then SIGKILL), safe to repeat. */
  @Override
  public void close() throws InterruptedException {
    blueBacklog.close();
    greenBacklog.close();
    for (ConsumerProcess c : greenConsumers) {
      c.close();
    }
  }
}
