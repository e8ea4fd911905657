package org.albumstore.client;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.AttemptLog;
import org.albumstore.client.history.HistoryCheck;
import org.albumstore.client.history.HistoryFile;
import org.albumstore.client.history.HistoryWriter;
import org.albumstore.client.history.Verdict;
import org.albumstore.client.internal.broker.AmqpPassiveProbe;
import org.albumstore.client.internal.broker.BrokerSampler;
import org.albumstore.client.internal.broker.DrainWaiter;
import org.albumstore.client.internal.broker.QueueProbe;
import org.albumstore.client.internal.http.AlbumImage;
import org.albumstore.client.internal.http.AlbumStoreClient;
import org.albumstore.client.internal.http.AsyncAlbumStoreClient;
import org.albumstore.client.internal.http.AsyncTransport;
import org.albumstore.client.internal.http.IdempotencyKeys;
import org.albumstore.client.internal.http.RetryPolicy;
import org.albumstore.client.internal.http.Sleeper;
import org.albumstore.client.internal.http.Transport;
import org.albumstore.client.internal.live.RunPhase;
import org.albumstore.client.internal.live.RunWatch;
import org.albumstore.client.internal.live.WatchServers;
import org.albumstore.client.internal.report.CsvRequestLog;
import org.albumstore.client.internal.report.TimelineCsv;
import org.albumstore.client.internal.stats.IntervalLogs;
import org.albumstore.client.internal.stats.IntervalSink;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.client.internal.stats.RunClock;
import org.albumstore.client.internal.stats.RunStatistics;
import org.albumstore.client.internal.stats.StepStatistics;
import org.albumstore.client.internal.stats.Timeline;
import org.albumstore.client.internal.stats.TimelineRow;
import org.albumstore.client.internal.tiers.TierReadings;
import org.albumstore.client.internal.tiers.TierSampler;
import org.albumstore.client.internal.verify.AcknowledgedCsv;
import org.albumstore.client.internal.verify.AcknowledgedWrites;
import org.albumstore.client.internal.workload.EndFile;
import org.albumstore.client.internal.workload.FixedRatePacer;
import org.albumstore.client.internal.workload.Pacer;
import org.albumstore.client.internal.workload.RampRatePacer;
import org.albumstore.client.internal.workload.ReaderLoop;
import org.albumstore.client.internal.workload.RecentAlbums;
import org.albumstore.client.internal.workload.SteppedRatePacer;
import org.albumstore.client.internal.workload.ThreadGroupPlan;
import org.albumstore.client.internal.workload.VirtualUser;
import org.albumstore.client.internal.workload.WorkloadListener;
import org.albumstore.client.internal.workload.WorkloadScheduler;
import org.albumstore.client.internal.workload.WriterJob;
import org.albumstore.client.internal.workload.WriterLoop;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run, start to end: open the connections, run the start-up phase and the warm-up, run the
 * thread groups under the timeline, wait for the queue to drain, verify, and hand the figures to
 * {@link RunReporter}.
 *
 * <p>Everything opened here is closed here, in reverse order, in try-with-resources. A stop request
 * (Ctrl-C) ends the load after the current iteration of each thread and skips verification; the
 * report of what ran is still written.
 */
final class LoadRun {
  private static final Logger log = LoggerFactory.getLogger(LoadRun.class);
  private static final int CSV_BUFFER_ROWS = 65_536;
  private static final int RECENT_ALBUMS = 65_536;
  private static final int HISTORY_BUFFER_ATTEMPTS = 262_144;

  /** How long the depth at the end of the load may be read again when the last reading had none. */
  private static final Duration DEPTH_AT_END_LIMIT = Duration.ofSeconds(10);

  private final ClientConfig cfg;
  private final PrintStream out;
  private final PrintStream err;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile WorkloadScheduler scheduler;

  LoadRun(ClientConfig cfg, PrintStream out, PrintStream err) {
    this.cfg = cfg;
    this.out = out;
    this.err = err;
  }

  /** Ends the load early (from a shutdown hook) and waits, bounded, for the report. */
  void stopAndAwait(Duration limit) throws InterruptedException {
    stop.countDown();
    WorkloadScheduler s = scheduler;
    if (s != null) {
      s.requestStop();
    }
    finished.await(limit.toMillis(), TimeUnit.MILLISECONDS);
  }

  private boolean stopped() {
    return stop.getCount() == 0;
  }

  /** Waits that end early, with an InterruptedException, when the run is stopped. */
  private final Sleeper stopAwareSleeper =
      d -> {
        if (stop.await(d.toNanos(), TimeUnit.NANOSECONDS)) {
          throw new InterruptedException("run stopped");
        }
      };

  ClientResult run() throws IOException, InterruptedException {
    try {
      return runAndReport();
    } finally {
      finished.countDown();
    }
  }

  /**
   * What the start-up made: the run's ID, its folder, the image it uploads, its clock, where the
   * measured requests are counted and who reports them.
   */
  private record Setup(
      String runId,
      Path dir,
      AlbumImage image,
      RunClock clock,
      RunStatistics stats,
      RunReporter reporter,
      RunWatch watch) {}

  /**
   * What every writer of the run shares, measured or not.
   *
   * @param acknowledged what the writers were told, for the verification
   * @param recent recently created albums, for the readers
   * @param keys the run's idempotency keys
   */
  private record Shared(
      AcknowledgedWrites acknowledged, RecentAlbums recent, IdempotencyKeys keys) {}

  private ClientResult runAndReport() throws IOException, InterruptedException {
    Setup run = setUp();
    ClientConfig.Watching w = cfg.watching();
    try (WatchServers watching =
            WatchServers.open(
                w.metricsPort(),
                w.livePort(),
                w.bind(),
                w.linger(),
                run.watch(),
                run.dir(),
                err,
                stop);
        Transport transport =
            cfg.target()
                .transport()
                .open(
                    cfg.target().url(),
                    connections(),
                    cfg.target().ioThreads(),
                    cfg.target().timeout());
        CsvRequestLog csv =
            new CsvRequestLog(run.reporter().requestsCsv(), run.clock(), CSV_BUFFER_ROWS);
        TimelineCsv timelineCsv = new TimelineCsv(run.reporter().timelineCsv());
        BrokerSampler sampler = BrokerSampler.start(probes(), Duration.ofSeconds(1));
        HistoryWriter history = openHistory(run.dir(), run.runId(), run.clock())) {
      run.watch().watchQueue(sampler::latest);
      preflight(transport);
      Shared shared =
          new Shared(
              new AcknowledgedWrites(),
              new RecentAlbums(RECENT_ALBUMS),
              new IdempotencyKeys(run.runId()));
      runUnmeasured(
          writers(transport, RequestObserver.NONE, run.image(), history), shared, run.watch());
      RequestObserver measured = RequestObserver.all(run.stats(), csv);
      Writers writers = writers(transport, measured, run.image(), history);
      // After the warm-up: the tier table's differences cover the measured load only.
      TierSampler tiers =
          TierSampler.start(
              cfg.tiers().serverMetrics().orElse(null), cfg.tiers().consumerMetrics().orElse(null));
      RunOutcome.Load load = measuredLoad(run, writers, shared, sampler, timelineCsv);
      QueueSample atEnd = sampler.depthAtEnd(DEPTH_AT_END_LIMIT);
      // What this client was told, for 'merge' to verify the union of several clients' writes.
      AcknowledgedCsv.write(shared.acknowledged(), run.reporter().acknowledgedCsv());
      log.info(
          "load finished after {} s", String.format(Locale.ROOT, "%.1f", load.times().seconds()));
      long loadEnd = run.clock().epochMillis(load.times().endNanos());
      PostLoadCheck.Outcome check =
          verify(sampler, loadEnd, transport, run.image(), shared.acknowledged(), run.watch());
      run.watch().phase(RunPhase.REPORT);
      // After the drain (when verifying): the consumer has applied what this run wrote.
      TierReadings tierReadings = tiers.finish();
      csv.close(); // flush the rows before the report names the file
      RunOutcome outcome =
          new RunOutcome(
              run.stats(),
              load,
              new RunOutcome.Queue(sampler, atEnd, check.drain()),
              check.verification(),
              tierReadings,
              csv.dropped(),
              stopped());
      RunSummary summary = run.reporter().finish(outcome, out);
      ClientResult result =
          new ClientResult(
              judgeHistory(history, run.dir(), summary, check.verification()), summary);
      run.watch()
          .finished(
              JsonSummary.toJson(summary), Files.isRegularFile(run.dir().resolve("report.html")));
      return result;
    }
  }

  /** The run's ID, its folder (created), its image, clock, statistics and reporter. */
  private Setup setUp() throws IOException {
    Instant startedAt = Instant.now();
    String runId =
        cfg.output()
            .runId()
            .orElseGet(
                () ->
                    RunReporter.RUN_ID_TIME.format(startedAt)
                        + "-"
                        + UUID.randomUUID().toString().substring(0, 8));
    Path dir = Files.createDirectories(cfg.output().dir());
    Optional<Path> imageFile = cfg.writes().image();
    AlbumImage image =
        imageFile.isPresent() ? AlbumImage.read(imageFile.get()) : AlbumImage.builtIn();
    RunClock clock = RunClock.start();
    RunStatistics stats = new RunStatistics();
    RunReporter reporter = new RunReporter(cfg, runId, startedAt, image, dir);
    log.info("run {}: {} -> {}", runId, cfg, dir);
    return new Setup(runId, dir, image, clock, stats, reporter, new RunWatch(stats));
  }

  /** The connections the transport opens: every load thread, reader and verifier. */
  private int connections() {
    int loadThreads =
        Math.max(
            cfg.groups().writers(),
            cfg.writes().startupPhase() ? ClientCommand.STARTUP_THREADS : 0);
    return loadThreads + cfg.groups().readers() + cfg.verification().threads();
  }

  /**
   * The measured load: the thread groups and the readers, under the timeline (and its {@code .hlog}
   * files and step figures), until every writer has finished or the run is stopped.
   */
  private RunOutcome.Load measuredLoad(
      Setup run, Writers writers, Shared shared, BrokerSampler sampler, TimelineCsv timelineCsv)
      throws IOException, InterruptedException {
    StepStatistics steps = stepStatistics();
    try (IntervalLogs hlogs =
        new IntervalLogs(run.dir(), run.runId(), System.currentTimeMillis())) {
      List<IntervalSink> sinks = new ArrayList<>(List.of(hlogs));
      if (steps != null) {
        sinks.add(steps);
      }
      if (cfg.watching().any()) {
        sinks.add(run.watch());
      }
      run.watch().phase(RunPhase.LOAD);
      Timeline timeline =
          new Timeline(
              run.stats(),
              sampler::latest,
              run.clock(),
              timelineCsv,
              cfg.output().progress() ? err : null,
              sinks);
      timeline.start();
      WorkloadScheduler load = measuredScheduler(writers, shared, System.nanoTime());
      scheduler = load;
      if (stopped()) {
        load.requestStop();
      }
      WorkloadScheduler.Times times;
      List<TimelineRow> rows;
      try {
        times = load.run();
      } finally {
        rows = timeline.stop(); // also when interrupted: no heartbeat outlives the run
      }
      return new RunOutcome.Load(
          times, rows, load.crashedThreads(), steps == null ? List.of() : steps.rows());
    }
  }

  /** The thread groups of writers and the readers' window, paced from {@code loadStart}. */
  private WorkloadScheduler measuredScheduler(Writers writers, Shared shared, long loadStart) {
    Pacer pacer = pacer(loadStart);
    BooleanSupplier writerDone = writerDone(loadStart);
    AtomicInteger readerNo = new AtomicInteger();
    return new WorkloadScheduler(
        new ThreadGroupPlan(
            cfg.groups().size(),
            cfg.groups().count(),
            cfg.groups().delay(),
            cfg.groups().readers()),
        i ->
            writers.task(
                new WriterJob(
                    cfg.writes().workload(),
                    pacer,
                    shared.keys(),
                    "t" + i,
                    cfg.writes().iterations(),
                    shared.acknowledged().newSegment(),
                    shared.recent(),
                    writerDone,
                    cfg.writes().readsBack(i))),
        keepReading ->
            new ReaderLoop(
                writers.forProcess("r" + readerNo.getAndIncrement()),
                shared.recent(),
                keepReading,
                Sleeper.REAL),
        logMilestones());
  }

  /**
   * The drain wait and the verification ({@link PostLoadCheck}), or why they were skipped: {@code
   * --no-verify}, or the run was stopped before or during them.
   */
  private PostLoadCheck.Outcome verify(
      BrokerSampler sampler,
      long loadEndEpochMillis,
      Transport transport,
      AlbumImage image,
      AcknowledgedWrites acknowledged,
      RunWatch watch)
      throws InterruptedException {
    if (!cfg.verification().enabled()) {
      return skipped("--no-verify");
    }
    if (stopped()) {
      return skipped("run stopped early");
    }
    try {
      watch.phase(RunPhase.DRAIN);
      return new PostLoadCheck(cfg.verification(), stopAwareSleeper, watch)
          .run(sampler, loadEndEpochMillis, transport, image, acknowledged);
    } catch (InterruptedException e) {
      if (!stopped()) {
        throw e;
      }
      return skipped("run stopped during verification");
    }
  }

  private static PostLoadCheck.Outcome skipped(String why) {
    return new PostLoadCheck.Outcome(
        new DrainWaiter.Result(DrainWaiter.Status.NOT_AWAITED, null),
        RunSummary.Verification.skipped(why));
  }

  /** The history's writer, or null without {@code --history}. */
  private HistoryWriter openHistory(Path dir, String runId, RunClock clock) throws IOException {
    return cfg.history().recorded()
        ? new HistoryWriter(
            dir.resolve(HistoryFile.NAME),
            runId,
            clock.originNanos(),
            clock.originEpochMillis(),
            HISTORY_BUFFER_ATTEMPTS)
        : null;
  }

  /**
   * With {@code --history}: closes the history and, once the queue has drained (the verification
   * ran), judges it; a violation, or a history that cannot be judged, makes the run fail (exit code
   * 1, as a mismatch does).
   *
   * @return the run's exit code
   */
  private int judgeHistory(
      HistoryWriter history, Path dir, RunSummary summary, RunSummary.Verification verification)
      throws IOException {
    if (history == null || summary.exitCode() == 130) {
      return summary.exitCode();
    }
    history.close();
    if (history.waited() > 0) {
      // The load slowed down for the history: say so beside figures it may have changed.
      log.warn("{} attempts waited for room in the history's queue", history.waited());
    }
    if ("skipped".equals(verification.status())) {
      out.println(
          "history: not judged: the verification was skipped (" + verification.note() + ")");
      return summary.exitCode();
    }
    DatabaseSettings db = cfg.history().database().orElse(null); // null: the reads only
    try {
      Verdict v = HistoryCheck.run(dir, db, out);
      return v.isClean() ? summary.exitCode() : 1;
    } catch (SQLException e) {
      log.error("history: cannot read the database", e);
      out.println(
          "history: not judged: cannot read the database " + db.jdbcUrl() + ": " + e.getMessage());
      return 1;
    }
  }

  /**
   * Per-step figures: of each --rate-steps step, or of each --step-duration of a --rate-ramp (its
   * target: the ramp's rate at the middle of the row); null without either.
   */
  private StepStatistics stepStatistics() {
    ClientConfig.Pacing pacing = cfg.pacing();
    double step = pacing.stepDuration().toMillis() / 1000.0;
    if (!pacing.steps().isEmpty()) {
      return new StepStatistics(pacing.steps(), step);
    }
    if (pacing.ramp().isEmpty()) {
      return null;
    }
    double from = pacing.ramp().get(0);
    double to = pacing.ramp().get(1);
    double seconds = pacing.duration().toMillis() / 1000.0;
    List<Double> targets = new ArrayList<>();
    for (double t = 0; t < seconds - 1e-9; t += step) {
      double mid = Math.min(t + step / 2, seconds);
      targets.add(from + (to - from) * mid / seconds);
    }
    return new StepStatistics(targets, step);
  }

  /** The closed model, the open model at --rate, its steps or its ramp, from the load's start. */
  private Pacer pacer(long loadStart) {
    ClientConfig.Pacing pacing = cfg.pacing();
    if (!pacing.ramp().isEmpty()) {
      return new RampRatePacer(
          pacing.ramp().get(0), pacing.ramp().get(1), pacing.duration(), loadStart);
    }
    if (!pacing.steps().isEmpty()) {
      return new SteppedRatePacer(pacing.steps(), pacing.stepDuration(), loadStart);
    }
    return pacing.rate() > 0 ? new FixedRatePacer(pacing.rate(), loadStart) : Pacer.UNPACED;
  }

  /**
   * When a writer ends after its current iteration: the run was stopped, or --duration (also the
   * steps' end) has passed since the load started, or the --end-file exists.
   */
  private BooleanSupplier writerDone(long loadStart) {
    Duration duration = cfg.pacing().duration();
    if (duration.isZero()) {
      return this::stopped;
    }
    long end = loadStart + duration.toNanos();
    BooleanSupplier signalled =
        cfg.pacing().endFile().<BooleanSupplier>map(EndFile::new).orElse(() -> false);
    return () -> stopped() || System.nanoTime() - end >= 0 || signalled.getAsBoolean();
  }

  private List<QueueProbe> probes() {
    List<QueueProbe> probes = new ArrayList<>();
    ClientConfig.Broker broker = cfg.broker();
    broker
        .managementApi()
        .ifPresent(
            api ->
                probes.add(
                    new ManagementApiProbe(
                        api.url(), api.vhost(), broker.queue(), api.user(), api.password())));
    broker
        .amqpUri()
        .ifPresent(
            uri ->
                probes.add(
                    new AmqpPassiveProbe(
                        new AmqpSettings(uri, broker.queue(), AmqpSettings.QueueType.CLASSIC))));
    return probes;
  }

  /**
   * One GET before the threads start: an unreachable server ends the run at once, not after every
   * request of every thread has been retried. Any HTTP status means the server is there.
   */
  private void preflight(Transport transport) throws IOException {
    try {
      transport.send(ApiRequest.getReview("albumstore-client-preflight"));
    } catch (IOException e) {
      throw new UnreachableServerException(cfg.target().url(), e);
    }
  }

  /**
   * Iterations before the measured load, outside the statistics but in the acknowledged writes
   * (verified): the course's start-up phase, then the warm-up (JIT, connections, server caches),
   * whose threads are as many as the first group's.
   */
  private void runUnmeasured(Writers unmeasured, Shared shared, RunWatch watch)
      throws InterruptedException {
    ClientConfig.Writes writes = cfg.writes();
    if (writes.startupPhase() || writes.warmupIterations() > 0) {
      watch.phase(RunPhase.WARMUP);
    }
    if (writes.startupPhase()) {
      log.info(
          "start-up phase: {} threads x {} iterations",
          ClientCommand.STARTUP_THREADS,
          ClientCommand.STARTUP_ITERATIONS);
      runUnmeasured(
          unmeasured, "s", ClientCommand.STARTUP_THREADS, ClientCommand.STARTUP_ITERATIONS, shared);
    }
    if (writes.warmupIterations() > 0) {
      int threads = cfg.groups().size();
      log.info("warm-up: {} threads x {} iterations", threads, writes.warmupIterations());
      runUnmeasured(unmeasured, "w", threads, writes.warmupIterations(), shared);
    }
  }

  /**
   * One unmeasured phase: {@code threads} writers of {@code iterations} each, all at once. {@code
   * prefix} keeps their idempotency keys apart from the load's.
   */
  private void runUnmeasured(Writers api, String prefix, int threads, int iterations, Shared shared)
      throws InterruptedException {
    WorkloadScheduler warm =
        new WorkloadScheduler(
            new ThreadGroupPlan(threads, 1, Duration.ZERO, 0),
            i ->
                api.task(
                    new WriterJob(
                        cfg.writes().workload(),
                        Pacer.UNPACED,
                        shared.keys(),
                        prefix + i,
                        iterations,
                        shared.acknowledged().newSegment(),
                        shared.recent(),
                        this::stopped,
                        false)),
            keepReading -> () -> {},
            WorkloadListener.NONE);
    scheduler = warm;
    warm.run();
  }

  /**
   * The writers' API over {@code transport}: blocking, and on the event loops where it can.
   *
   * @param history where each writer and reader records its attempts, or null
   */
  private Writers writers(
      Transport transport, RequestObserver observer, AlbumImage image, HistoryWriter history) {
    RetryPolicy policy = RetryPolicy.of(cfg.target().retries());
    return new Writers(
        AlbumStoreClient.create(transport, policy, observer, image),
        transport instanceof AsyncTransport async
            ? AsyncAlbumStoreClient.create(async, policy, observer, image)
            : null,
        history);
  }

  /**
   * What a writer runs: a {@link VirtualUser} on the event loops when the transport sends without
   * blocking, else a {@link WriterLoop} on the writer's thread.
   *
   * @param blocking also the readers' API
   * @param async null when the transport blocks
   * @param history null without {@code --history}
   */
  private record Writers(
      AlbumStoreClient blocking, AsyncAlbumStoreClient async, HistoryWriter history) {
    /** What a process (a writer or reader, {@code label}) tells the history. */
    private AttemptLog log(String label) {
      return history == null ? AttemptLog.NONE : history.process(label);
    }

    /** The blocking API of one process (a reader, or a writer when sends block). */
    AlbumStoreClient forProcess(String label) {
      return history == null ? blocking : blocking.withAttemptLog(log(label));
    }

    /** The task that runs {@code job}: on the event loops when it can, else on its thread. */
    Runnable task(WriterJob job) {
      if (async != null) {
        return new VirtualUser(async.forOneUser(log(job.label())), job).awaitingTask();
      }
      return new WriterLoop(forProcess(job.label()), job);
    }
  }

  private WorkloadListener logMilestones() {
    return new WorkloadListener() {
      @Override
      public void groupStarted(int group, int threads) {
        log.info(
            "thread group {}/{} started ({} threads)", group + 1, cfg.groups().count(), threads);
      }

      @Override
      public void readersStarted(int readers) {
        log.info("first group finished: {} GET threads started", readers);
      }

      @Override
      public void writersFinished() {
        log.info("all writer threads finished");
      }
    };
  }

  /** The server did not answer at all. */
  static final class UnreachableServerException extends IOException {
    UnreachableServerException(String url, IOException cause) {
      super("cannot reach " + url + ": " + cause, cause);
    }
  }
}
