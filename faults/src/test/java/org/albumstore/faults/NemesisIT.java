package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.albumstore.client.history.History;
import org.albumstore.client.history.HistoryCheck;
import org.albumstore.client.history.HistoryFile;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.faults.harness.ClientProcess;
import org.albumstore.faults.harness.ClusterStack;
import org.albumstore.faults.harness.ClusterWorld;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.nemesis.BacklogProbe;
import org.albumstore.faults.nemesis.ClusterInjector;
import org.albumstore.faults.nemesis.FaultCost;
import org.albumstore.faults.nemesis.FaultImpact;
import org.albumstore.faults.nemesis.FaultKind;
import org.albumstore.faults.nemesis.Nemesis;
import org.albumstore.faults.nemesis.NemesisSchedule;
import org.albumstore.faults.planted.PlantedBug;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A seed's schedule of overlapping faults played on the cluster topology while the client writes
 * and reads through the balancer with its operation history on; the history's checker judges every
 * operation: no lost write, no phantom, read-your-writes, monotonic and bounded counts.
 *
 * <p>{@code -Dalbumstore.nemesis.seed=S} replays a schedule, {@code -Dalbumstore.nemesis.seconds=N}
 * sets the load's length ({@code faults/nemesis.sh} runs long ones). The defaults, which {@code mvn
 * verify} runs: a seed whose 2 minutes hold at least 6 faults of at least 4 kinds, two of them at
 * the same moment, among them a server killed, a server added and a consumer added. The kill is
 * what ClusterFaultsIT's scenario C3 was (a server SIGKILLed under load, its requests retried on
 * the other); here every read is judged too, and every write must end acknowledged, as C3 required.
 */
class NemesisIT {
  private static final Logger log = LoggerFactory.getLogger(NemesisIT.class);

  /** The run of {@code mvn verify}; its schedule is asserted below. */
  private static final long DEFAULT_SEED = 24;

  private static final long DEFAULT_SECONDS = 120;

  static final long SEED = Long.getLong("albumstore.nemesis.seed", DEFAULT_SEED);
  static final Duration LENGTH =
      Duration.ofSeconds(Long.getLong("albumstore.nemesis.seconds", DEFAULT_SECONDS));

  /**
   * The load of {@code mvn verify}: 16 writer threads at 60 writes/s through the balancer, with the
   * readers beside them. Light on purpose: the suite's run must stay short and hold on a shared
   * 2-core CI machine beside the other modules; a fault's window that only load opens (an
   * asynchronous commit's unflushed WAL, a large batch) is for the long runs, which set {@code
   * -Dalbumstore.nemesis.rate=R -Dalbumstore.nemesis.threads=T} ({@code faults/nemesis.sh --rate R
   * --threads T}), and for {@code PlantedBugsIT}, which loads one failover hard.
   */
  private static final int DEFAULT_THREADS = 16;

  private static final int DEFAULT_RATE = 60;

  static final int THREADS = Integer.getInteger("albumstore.nemesis.threads", DEFAULT_THREADS);
  static final int RATE = Integer.getInteger("albumstore.nemesis.rate", DEFAULT_RATE);

  /**
   * {@code -Dalbumstore.nemesis.planted=BUG} ({@code faults/nemesis.sh --planted BUG}): every
   * consumer runs with that bug planted ({@link PlantedBug}), and the run passes only if the
   * checker or the end-of-run verification catches it.
   */
  static final Optional<PlantedBug> PLANTED =
      Optional.ofNullable(System.getProperty("albumstore.nemesis.planted"))
          .filter(s -> !s.isBlank())
          .map(PlantedBug::valueOf);

  /**
   * {@code -Dalbumstore.nemesis.resource-faults=true} ({@code faults/nemesis.sh} sets it) adds the
   * disk-alarm and slow-database lanes. Off in {@code mvn verify}: a disk alarm blocks every
   * publisher of the cluster, and with the broker lane's memory alarms beside it the suite's two
   * minutes left 14 of 5,022 writes without a 200 after their 10 retries on a machine at load
   * average 40 (the verdict and the audit clean); its heals also wait on {@code rabbitmqctl}, which
   * such a machine makes slow. The long runs play them.
   */
  static final boolean RESOURCE_FAULTS = Boolean.getBoolean("albumstore.nemesis.resource-faults");

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aSeedsOverlappingFaultsLeaveEveryOperationOfTheHistoryRight() throws Exception {
    ClusterStack.requirePartitions("the nemesis (a partition is one of its faults)");
    try (ClusterStack cluster =
            ClusterStack.startWithFailoverDatabase(
                "the nemesis (3 RabbitMQ nodes, HAProxy, PostgreSQL with a standby)");
        ClusterWorld world = cluster.world("nemesis-" + SEED)) {
      PLANTED.ifPresent(world::plant);
      List<ConsumerProcess> consumers = world.start(2);
      ClusterInjector injector = new ClusterInjector(cluster, world, consumers);
      Map<FaultKind.Tier, Integer> instances = new EnumMap<>(injector.instances());
      if (!RESOURCE_FAULTS) {
        instances.remove(FaultKind.Tier.DISK);
        instances.remove(FaultKind.Tier.DATABASE_SPEED);
      }
      NemesisSchedule schedule = NemesisSchedule.draw(SEED, LENGTH, instances);
      log.info("{}", schedule);
      boolean defaultRun =
          SEED == DEFAULT_SEED
              && LENGTH.toSeconds() == DEFAULT_SECONDS
              && RATE == DEFAULT_RATE
              && THREADS == DEFAULT_THREADS;
      if (defaultRun) {
        assertThat(schedule.faults()).as(schedule.toString()).hasSizeGreaterThanOrEqualTo(6);
        assertThat(kinds(schedule))
            .as(schedule.toString())
            .hasSizeGreaterThanOrEqualTo(4)
            .contains(
                FaultKind.SERVER_KILL,
                FaultKind.SERVER_ADD,
                FaultKind.CONSUMER_ADD,
                FaultKind.DB_FAILOVER);
        assertThat(schedule.overlappingPairs()).as(schedule.toString()).isPositive();
      }
      Path out = Paths.emptyOutputDir("nemesis-seed-" + SEED);
      Run run = play(schedule, injector, cluster, world, out);

      report(schedule, run, out);
      assertThat(run.nemesis().failures()).as("faults the nemesis could not play").isEmpty();
      if (PLANTED.isPresent()) {
        assertCaught(run);
        return;
      }
      assertThat(run.verdict()).as(run.client().output()).contains("no violation");
      assertThat(run.summary().path("verification").path("mismatches").asLong(-1))
          .as(run.client().output())
          .isZero();
      if (defaultRun) {
        JsonNode writes = run.summary().path("allWrites");
        assertThat(writes.path("failed").asLong(-1))
            .as("writes that never got a 200, retries included: %s", writes)
            .isZero();
        assertThat(writes.path("ok").asLong()).as("%s", writes).isPositive();
      }
    }
  }

  /**
   * A planted bug is caught: the checker names violations, or the verification finds mismatches.
   */
  private static void assertCaught(Run run) {
    long mismatches = run.summary().path("verification").path("mismatches").asLong(0);
    assertThat(run.verdict().contains("VIOLATIONS") || mismatches > 0)
        .as("planted %s caught: %s, %d mismatches", PLANTED.get(), run.verdict(), mismatches)
        .isTrue();
  }

  private record Run(
      ClientProcess client,
      String verdict,
      JsonNode summary,
      Nemesis nemesis,
      History history,
      BacklogProbe backlog) {}

  /** The client's load with the nemesis beside it, from the same moment; both bounded. */
  private static Run play(
      NemesisSchedule schedule,
      ClusterInjector injector,
      ClusterStack cluster,
      ClusterWorld world,
      Path out)
      throws Exception {
    ClientProcess client;
    Nemesis nemesis = new Nemesis(schedule, injector);
    BacklogProbe backlog;
    try (nemesis) {
      CompletableFuture<ClientProcess> load =
          CompletableFuture.supplyAsync(() -> client(world, cluster.db(), out));
      backlog = BacklogProbe.start(world.amqp());
      nemesis.start();
      try (backlog) {
        client = load.get();
      }
      assertThat(nemesis.awaitDone(Duration.ofMinutes(3))).as("the nemesis finished").isTrue();
    }
    Path verdict = out.resolve(HistoryCheck.VERDICT_FILE);
    assertThat(verdict).as(client.output()).isRegularFile();
    History history = HistoryFile.read(out.resolve(HistoryFile.NAME));
    JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
    return new Run(client, Files.readString(verdict), summary, nemesis, history, backlog);
  }

  /** client.jar through the balancer; the load's length plus the drain and the checks at most. */
  private static ClientProcess client(ClusterWorld world, DatabaseSettings db, Path out) {
    return ClientProcess.runWithHistory(
        "nemesis-" + SEED + "-client",
        new ClientProcess.HistoryLoad(
            world.balancerUrl(),
            world.amqp(),
            db,
            world.runId(),
            THREADS,
            RATE,
            LENGTH,
            Duration.ofSeconds(180)),
        Duration.ofMinutes(8),
        out);
  }

  /** The schedule, what the nemesis did, each fault's cost to the clients, and the verdict. */
  private static void report(NemesisSchedule schedule, Run run, Path out) throws Exception {
    long loadStart =
        (run.nemesis().started().toEpochMilli() - run.history().originEpochMillis()) * 1_000;
    List<String> lines = new ArrayList<>();
    lines.add(schedule.toString());
    lines.add(
        "load: "
            + THREADS
            + " writer threads at "
            + RATE
            + " writes/s, 2 readers; disk and slow-database lanes "
            + (RESOURCE_FAULTS ? "on" : "off"));
    PLANTED.ifPresent(b -> lines.add("planted bug: " + b + " (" + b.description() + ")"));
    lines.add("what the nemesis did:");
    run.nemesis().journal().forEach(e -> lines.add("  " + e));
    lines.add("what each fault cost the clients:");
    List<FaultCost.Row> costs = new ArrayList<>();
    for (FaultImpact i : FaultImpact.of(schedule, run.history(), loadStart)) {
      BacklogProbe.Backlog left = run.backlog().after(i.fault().start(), i.fault().heal());
      costs.add(new FaultCost.Row(i, left));
      lines.add(
          "  "
              + i
              + ", backlog at heal "
              + left.atHeal()
              + ", drained "
              + left.drain().map(d -> d.toMillis() / 1000.0 + " s after").orElse("not by the end"));
    }
    // The client's history starts its clock on its own: say how to put a violation on this
    // journal's time line.
    lines.add(
        String.format(
            Locale.ROOT,
            "the verdict's times are the history's; on the nemesis's clock add %.3f s",
            -loadStart / 1e6));
    lines.add(run.verdict());
    Files.write(out.resolve("nemesis.txt"), lines);
    Duration quiet = FaultImpact.quietWriteP99(schedule, run.history(), loadStart);
    String load = THREADS + " writer threads at " + RATE + " writes/s, seed " + schedule.seed();
    Files.write(out.resolve("fault-cost.md"), FaultCost.table(costs, quiet, load));
    log.info("nemesis run:\n{}\n{}", String.join("\n", lines), run.client().output());
    Summary.record(
        "nemesis seed "
            + schedule.seed()
            + ", "
            + schedule.length().toSeconds()
            + " s, "
            + schedule.faults().size()
            + " faults ("
            + schedule.overlappingPairs()
            + " overlapping pairs): "
            + run.verdict().lines().findFirst().orElse("no verdict")
            + " (details: "
            + out.resolve("nemesis.txt")
            + ")");
  }

  private static List<FaultKind> kinds(NemesisSchedule schedule) {
    return schedule.faults().stream().map(f -> f.kind()).distinct().collect(Collectors.toList());
  }
}
