package org.albumstore.faults.upgrade;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.History;
import org.albumstore.client.history.HistoryCheck;
import org.albumstore.client.history.HistoryFile;
import org.albumstore.client.history.Operation;
import org.albumstore.faults.harness.ClientProcess;
import org.albumstore.faults.harness.ClusterStack;
import org.albumstore.faults.harness.ClusterWorld;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.Release;
import org.albumstore.faults.harness.ServerProcess;
import org.albumstore.faults.nemesis.BacklogProbe;
import org.albumstore.faults.nemesis.ClusterInjector;
import org.albumstore.faults.nemesis.Nemesis;
import org.albumstore.faults.nemesis.NemesisSchedule;
import org.albumstore.faults.upgrade.UpgradeStep.Action;
import org.albumstore.faults.upgrade.UpgradeStep.Side;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One upgrade run from start to verdict: N built (beside the cluster's start, the slow part of a
 * first run), a database of the run's own with N's schema, the cluster topology started on the
 * plan's first release, the client's judged load with the seed's steps and fault beside it from the
 * same moment, then the report ({@code upgrade.txt}, {@code step-cost.md}) beside the client's
 * verdict and summary in {@code target/faults/upgrade-<plan>-seed-S/}. What the test asserts is
 * returned; everything started is stopped, and a fault healed, also when the run fails.
 */
public final class UpgradeRun {
  private static final Logger log = LoggerFactory.getLogger(UpgradeRun.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int CONSUMERS = 2;

  /** How many of the messages left in the dead-letter queues at the end have their reason read. */
  private static final int LEFT_READ = 10_000;

  /** How long the client may wait for the queue to drain and the counts to agree at the end. */
  private static final Duration DRAIN = Duration.ofSeconds(120);

  /**
   * The load after the last step when the steps ran late: long enough for what that step changed to
   * be written, read and judged before the load ends.
   */
  private static final Duration AFTER_LAST_STEP = Duration.ofSeconds(15);

  /** How far the load may outlast its planned length while it waits for late steps. */
  private static final Duration OVERRUN = Duration.ofMinutes(3);

  /** What a run plays: the plan and seed, and the load's length, rate and writer threads. */
  public record Settings(UpgradePlan plan, long seed, Duration length, int rate, int threads) {
    String name() {
      return "upgrade-" + plan.label() + "-seed-" + seed;
    }

    String load() {
      return threads + " writer threads at " + rate + " writes/s, 2 readers";
    }
  }

  /**
   * What a run showed.
   *
   * @param verdict the checker's verdict, as the client wrote it
   * @param summary the client's summary.json (its verification is the audit)
   * @param failures what failed in the steps or the fault's lane; empty when all were played
   * @param finalServers the release each server runs at the end
   * @param finalConsumers the release each running consumer runs at the end
   * @param reviewedLast the albums reviewed (acknowledged) by a review first sent after the last
   *     server step ended, when the plan ends on N+1's servers: they must carry a review time
   * @param withoutReviewTime those of {@code reviewedLast} whose {@code last_review_at} is null
   */
  public record Result(
      UpgradeSchedule schedule,
      Path out,
      String verdict,
      JsonNode summary,
      List<Throwable> failures,
      long deadLettered,
      long redriven,
      long deadLettersAtEnd,
      Release next,
      List<Release> finalServers,
      List<Release> finalConsumers,
      Set<String> reviewedLast,
      Set<String> withoutReviewTime) {
    public long mismatches() {
      return summary.path("verification").path("mismatches").asLong(-1);
    }
  }

  private UpgradeRun() {}

  public static Result play(Settings settings) throws Exception {
    CompletableFuture<Map<Side, Release>> built =
        CompletableFuture.supplyAsync(() -> releases(settings.plan()));
    try (ClusterStack cluster =
        ClusterStack.start("the rolling upgrade (3 RabbitMQ nodes, HAProxy, releases N and N+1)")) {
      Map<Side, Release> releases = await(built);
      String id = UUID.randomUUID().toString().substring(0, 8);
      try (UpgradeDatabase db =
              UpgradeDatabase.create(cluster.db(), id, Releases.previousSchema());
          ClusterWorld world = cluster.world(settings.name(), db.settings())) {
        return play(settings, cluster, world, db, releases);
      }
    }
  }

  /** N (or its planted variant, for that plan) and N+1. */
  private static Map<Side, Release> releases(UpgradePlan plan) {
    Map<Side, Release> r = new EnumMap<>(Side.class);
    r.put(
        Side.N,
        plan == UpgradePlan.PLANTED ? Releases.previousAckingUnreadable() : Releases.previous());
    r.put(Side.N_PLUS_1, Releases.next());
    return r;
  }

  private static <T> T await(CompletableFuture<T> f) throws Exception {
    try {
      return f.get();
    } catch (ExecutionException | CompletionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause; // a skip (no git, no commit) stays a skip
      }
      throw e;
    }
  }

  private static Result play(
      Settings settings,
      ClusterStack cluster,
      ClusterWorld world,
      UpgradeDatabase db,
      Map<Side, Release> releases)
      throws Exception {
    if (settings.plan().start() == Side.N_PLUS_1) {
      // N+1 refuses a schema that predates it: a run that starts there starts expanded.
      new ReleaseCommands(releases.get(Side.N_PLUS_1), settings.name() + "-before")
          .schema(db.settings());
    }
    List<ConsumerProcess> started = world.start(releases.get(settings.plan().start()), CONSUMERS);
    ConsumerSlots slots =
        new ConsumerSlots(world, new ClusterInjector(cluster, world, started), CONSUMERS);
    UpgradeSchedule schedule =
        UpgradeSchedule.draw(
            settings.seed(),
            settings.plan(),
            settings.length(),
            CONSUMERS,
            world.servers().size(),
            cluster.brokers().nodes().size());
    log.info("{}", schedule);
    Path out = Paths.emptyOutputDir(settings.name());
    Upgrader upgrader = new Upgrader(schedule, world, slots, releases, settings.name());
    Nemesis nemesis =
        new Nemesis(
            NemesisSchedule.of(settings.seed(), settings.length(), List.of(schedule.fault())),
            slots);
    Played played = load(settings, world, out, upgrader, nemesis);
    Path verdictFile = out.resolve(HistoryCheck.VERDICT_FILE);
    if (!Files.isRegularFile(verdictFile)) {
      throw new AssertionError("the client judged nothing:\n" + played.client().output());
    }
    History history = HistoryFile.read(out.resolve(HistoryFile.NAME));
    UpgradeReport report =
        new UpgradeReport(
            new UpgradeReport.Run(
                schedule,
                upgrader.runs(),
                nemesis,
                history,
                played.backlog(),
                played.deadLetters(),
                slots.notes(),
                Files.readString(verdictFile),
                JSON.readTree(out.resolve("summary.json").toFile()),
                DeadLetters.left(world.amqp(), LEFT_READ)),
            settings.load());
    return result(
        settings, out, report, played.failures(), world, slots, releases, db, history, upgrader);
  }

  /** What the load left: the client, the two probes' samples, what failed beside it. */
  private record Played(
      ClientProcess client,
      BacklogProbe backlog,
      BacklogProbe deadLetters,
      List<Throwable> failures) {}

  /**
   * The client's load with the steps and the fault beside it, from the same moment, all bounded;
   * whatever happens, the steps are stopped and the fault healed before this returns.
   */
  private static Played load(
      Settings settings, ClusterWorld world, Path out, Upgrader upgrader, Nemesis nemesis)
      throws Exception {
    ClientProcess client;
    BacklogProbe backlog;
    BacklogProbe deadLetters;
    List<Throwable> failures = new ArrayList<>();
    Path endFile = out.resolve("load.end");
    Thread ending = new Thread(() -> endLoad(upgrader, settings.length(), endFile), "load-end");
    try (nemesis) {
      try {
        CompletableFuture<ClientProcess> load =
            CompletableFuture.supplyAsync(() -> client(settings, world, out, endFile));
        backlog = BacklogProbe.start(world.amqp());
        deadLetters = BacklogProbe.deadLetters(world.amqp());
        nemesis.start();
        upgrader.start();
        ending.start();
        try (backlog;
            deadLetters) {
          client = load.get();
        }
        if (!upgrader.awaitDone(Duration.ofMinutes(3))) {
          failures.add(new IllegalStateException("the upgrade's steps did not end"));
        }
        if (!nemesis.awaitDone(Duration.ofMinutes(3))) {
          failures.add(new IllegalStateException("the fault was not healed"));
        }
      } finally {
        ending.interrupt();
        upgrader.stop();
      }
    }
    failures.addAll(upgrader.failures());
    failures.addAll(nemesis.failures());
    return new Played(client, backlog, deadLetters, failures);
  }

  /**
   * Ends the client's load at its planned length, or {@link #AFTER_LAST_STEP} after the last step
   * when the steps ran past that (a busy machine): the load outlasts the upgrade in every run. The
   * client's {@code --duration}, the length plus {@link #OVERRUN}, bounds the wait.
   */
  private static void endLoad(Upgrader upgrader, Duration length, Path endFile) {
    long planned = System.nanoTime() + length.toNanos();
    try {
      upgrader.awaitDone(length.plus(OVERRUN));
      long end = Math.max(planned, System.nanoTime() + AFTER_LAST_STEP.toNanos());
      TimeUnit.NANOSECONDS.sleep(end - System.nanoTime());
      Files.createFile(endFile);
      log.info("the load ends: the upgrade's steps are done ({})", endFile);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Result result(
      Settings settings,
      Path out,
      UpgradeReport report,
      List<Throwable> failures,
      ClusterWorld world,
      ConsumerSlots slots,
      Map<Side, Release> releases,
      UpgradeDatabase db,
      History history,
      Upgrader upgrader)
      throws Exception {
    List<String> lines = new ArrayList<>(report.lines());
    failures.forEach(f -> lines.add("FAILED: " + f));
    Files.write(out.resolve("upgrade.txt"), lines);
    Files.write(out.resolve("step-cost.md"), report.table());
    log.info("upgrade run:\n{}", String.join("\n", lines));
    Set<String> reviewedLast = reviewedAfterLastServerStep(settings, upgrader, history);
    UpgradeReport.Run r = report.run();
    return new Result(
        r.schedule(),
        out,
        r.verdict(),
        r.summary(),
        failures,
        report.deadLettered(),
        report.redriven(),
        r.deadLettersAtEnd().messages(),
        releases.get(Side.N_PLUS_1),
        world.servers().stream().map(ServerProcess::release).toList(),
        slots.running().stream().map(ConsumerProcess::release).toList(),
        reviewedLast,
        withoutReviewTime(db, reviewedLast));
  }

  /**
   * The albums of the reviews whose first attempt was sent after the last server step ended, and
   * that were acknowledged, when every server is N+1 from then on: written as version 3, so applied
   * with a review time. Empty for the plans that end on N's servers.
   */
  private static Set<String> reviewedAfterLastServerStep(
      Settings settings, Upgrader upgrader, History history) {
    Set<String> albums = new TreeSet<>();
    if (settings.plan() == UpgradePlan.ROLLBACK) {
      return albums;
    }
    Instant last = null;
    for (Upgrader.StepRun s : upgrader.runs()) {
      if (s.step().action() == Action.REPLACE_SERVER) {
        last = s.end();
      }
    }
    if (last == null) {
      return albums;
    }
    long after = (last.toEpochMilli() - history.originEpochMillis()) * 1_000;
    Map<String, Long> firstSent = new HashMap<>();
    for (Operation o : history.operations()) {
      if (o.key() != null) {
        firstSent.merge(o.key(), o.sentMicros(), Math::min);
      }
    }
    for (Operation o : history.operations()) {
      boolean review = o.type() == RequestType.POST_LIKE || o.type() == RequestType.POST_DISLIKE;
      if (review && o.isSuccess() && o.key() != null && firstSent.get(o.key()) > after) {
        albums.add(o.albumId());
      }
    }
    return albums;
  }

  private static Set<String> withoutReviewTime(UpgradeDatabase db, Set<String> albums)
      throws Exception {
    Set<String> missing = new TreeSet<>();
    try (Connection c = db.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT album_id FROM album_reviews WHERE album_id = ANY(?)"
                    + " AND last_review_at IS NULL")) {
      ps.setArray(1, c.createArrayOf("text", albums.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          missing.add(rs.getString(1));
        }
      }
    }
    return missing;
  }

  /**
   * client.jar through the balancer until {@code endFile} exists ({@link #endLoad}); its bound is
   * the load's length and {@link #OVERRUN}, plus the drain and the checks.
   */
  private static ClientProcess client(
      Settings settings, ClusterWorld world, Path out, Path endFile) {
    return ClientProcess.runWithHistory(
        settings.name() + "-client",
        new ClientProcess.HistoryLoad(
            world.balancerUrl(),
            world.amqp(),
            world.db(),
            world.runId(),
            settings.threads(),
            settings.rate(),
            settings.length().plus(OVERRUN),
            DRAIN),
        DRAIN.plus(Duration.ofMinutes(3)),
        out,
        List.of("--end-file", endFile.toString()));
  }
}
