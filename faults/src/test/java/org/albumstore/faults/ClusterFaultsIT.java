package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.albumstore.embedded.cluster.Partition;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.albumstore.faults.harness.ClusterStack;
import org.albumstore.faults.harness.ClusterWorld;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.LoadStats;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster topology broken the ways production breaks, each under load through the balancer:
 * three RabbitMQ nodes (the write stream over {@value ClusterWorld#PARTITIONS} quorum queues of 3
 * members each, their leaders on different nodes; C1 and C6 break partition 0's leader's node)
 * behind HAProxy in {@code mode tcp}, two server processes behind HAProxy in {@code mode http}
 * ({@code leastconn}, {@code /health}), consumer processes, the shared test database. Every
 * scenario ends with the audit of the acknowledged writes exact: every acknowledged write applied
 * once, nothing counted twice.
 *
 * <p>The cluster and the balancer are shared by the scenarios (starting three nodes takes half a
 * minute); each scenario has its own queue, servers and consumers. The partition (C6) also needs
 * iptables and the right to change its rules; its rules match only this cluster's links ({@link
 * Partition}).
 */
class ClusterFaultsIT {
  private static ClusterStack cluster;
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

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = ClusterStack.start("the cluster fault scenarios (3 RabbitMQ nodes, HAProxy)");
    brokers = cluster.brokers();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void scenario4_aRollingRestartOfTheServersFailsNoRequest() throws Exception {
    try (ClusterWorld w = cluster.world("s4-server-rolling")) {
      w.start(1);
      WriteLoad load = w.load();
      try {
        load.awaitAcked(load.plannedWrites() / 5, Duration.ofSeconds(60));
        boolean midRun = !load.isDone();
        for (int i = 0; i < ClusterStack.SERVERS; i++) {
          int exit = w.servers().get(i).stop(); // SIGTERM: not ready, drain, in-flight, stop
          assertThat(exit).as("server " + (i + 1) + " exit after SIGTERM").isIn(0, 143);
          w.restartServer(i);
        }
        load.awaitDone(Duration.ofSeconds(120));
        ClusterWorld.End end = w.finish(load);
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
    try (ClusterWorld w = cluster.world("s5-consumer-kill-add")) {
      // Long batch waits: the killed consumer holds deliveries it has not acknowledged.
      ConsumerProcess first = w.start(2, "--batch-wait-ms", "200").get(0);
      WriteLoad load = w.load();
      try {
        load.awaitAcked(load.plannedWrites() / 3, Duration.ofSeconds(60));
        boolean midRun = !load.isDone();
        first.kill();
        w.startConsumer(); // a consumer instance added mid-run
        load.awaitDone(Duration.ofSeconds(120));
        ClusterWorld.End end = w.finish(load);
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
    try (ClusterWorld w = cluster.world("s1-leader-kill")) {
      w.start(2);
      Map<String, String> leaders = brokers.leaders();
      assertThat(w.amqp().partitionList())
          .as("the partitions' leaders, one per node: " + leaders)
          .extracting(p -> leaders.get(p.queue()))
          .doesNotContainNull()
          .doesNotHaveDuplicates();
      WriteLoad load = w.load();
      try {
        load.awaitAcked(load.plannedWrites() / 4, Duration.ofSeconds(60));
        boolean midRun = !load.isDone();
        String leader = brokers.leaderOf(w.amqp().queue()).orElseThrow();
        int node = brokers.indexOf(leader);
        brokers.kill(node);
        long down = System.nanoTime();
        // Down until the other two have elected a leader and writes are acknowledged without it.
        String interim =
            cluster.awaitLeaderOtherThan(w.amqp().queue(), leader, Duration.ofSeconds(60));
        long acked = load.stats().writesAcked();
        load.awaitAcked(Math.min(acked + 20, load.plannedWrites()), Duration.ofSeconds(60));
        brokers.restart(node);
        long downMillis = (System.nanoTime() - down) / 1_000_000;
        load.awaitDone(Duration.ofSeconds(180));
        ClusterWorld.End end = w.finish(load);
        String newLeader = brokers.leaderOf(w.amqp().queue()).orElse("none");
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
    try (ClusterWorld w = cluster.world("s2-broker-rolling")) {
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
        ClusterWorld.End end = w.finish(load);
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
    ClusterStack.requirePartitions("scenario C6 (a network partition between broker nodes)");
    try (ClusterWorld w = cluster.world("s6-partition")) {
      w.start(2);
      // Paced, and long enough to outlast noticing the partition (net_ticktime), the pause and
      // the rejoin however slow the machine; ended once writes are acknowledged after the rejoin.
      WriteLoad load = w.load(LONG_LOAD_ITERATIONS, 700);
      try {
        load.awaitAcked(WRITES_BEFORE_THE_FAULT, Duration.ofSeconds(60));
        String leader = brokers.leaderOf(w.amqp().queue()).orElseThrow();
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
          pausedMillis = cluster.awaitAmqpListener(node, false, Duration.ofSeconds(60));
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
        String resumed = cluster.resumeAfterHeal(node);
        // A bound, not a claim (the summary reports the time): on RabbitMQ 4.0 beside NemesisIT a
        // node still paused 20 s after the heal was restarted and ran again 56 s after it.
        long rejoinMillis = cluster.awaitRunningNodes(node, Duration.ofSeconds(120), healed);
        endOnceWritesGoOn(load);
        ClusterWorld.End end = w.finish(load);
        String newLeader = brokers.leaderOf(w.amqp().queue()).orElse("none");
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
        assertThat(brokers.membersOf(w.amqp().queue())).as("quorum members").hasSize(3);
        LoadChecks.assertClean(load.stats());
        assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
      } finally {
        load.interrupt();
      }
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
}
