package org.albumstore.client;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.albumstore.client.internal.broker.BrokerSampler;
import org.albumstore.client.internal.broker.DrainWaiter;
import org.albumstore.client.internal.check.Comparison;
import org.albumstore.client.internal.check.ThresholdResult;
import org.albumstore.client.internal.check.Thresholds;
import org.albumstore.client.internal.check.Timelines;
import org.albumstore.client.internal.http.AlbumImage;
import org.albumstore.client.internal.report.ChartRenderer;
import org.albumstore.client.internal.report.ConsoleReport;
import org.albumstore.client.internal.report.HtmlReport;
import org.albumstore.client.internal.report.SpectrumChart;
import org.albumstore.client.internal.report.StepsCsv;
import org.albumstore.client.internal.stats.RunStatistics;
import org.albumstore.client.internal.tiers.TierCalculator;
import org.albumstore.client.internal.verify.AcknowledgedCsv;
import org.albumstore.common.config.AmqpSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a finished run's figures into the {@link RunSummary} and writes it everywhere: {@code
 * summary.json}, {@code chart.png}, {@code report.html} and the tables on stdout.
 *
 * <p>The chart is optional (a JVM without fonts cannot draw text): if it fails, that is logged and
 * the rest is still written.
 */
final class RunReporter {
  static final DateTimeFormatter RUN_ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneId.systemDefault());
  private static final String TIMELINE_CSV = "timeline.csv";
  private static final Logger log = LoggerFactory.getLogger(RunReporter.class);

  private final ClientConfig cfg;
  private final String runId;
  private final Instant startedAt;
  private final AlbumImage image;
  private final Path dir;

  RunReporter(ClientConfig cfg, String runId, Instant startedAt, AlbumImage image, Path dir) {
    this.cfg = cfg;
    this.runId = runId;
    this.startedAt = startedAt;
    this.image = image;
    this.dir = dir;
  }

  Path requestsCsv() {
    return dir.resolve("requests.csv");
  }

  Path acknowledgedCsv() {
    return dir.resolve(AcknowledgedCsv.NAME);
  }

  Path timelineCsv() {
    return dir.resolve(TIMELINE_CSV);
  }

  /**
   * Builds the run's summary, writes its files and prints the report.
   *
   * @return the summary, with its exit code and the files written
   */
  RunSummary finish(RunOutcome run, PrintStream out) throws IOException {
    double wall = run.load().times().seconds();
    List<TypeStats> types = new ArrayList<>();
    for (RequestType t : RequestType.values()) {
      types.add(run.stats().stats(t, wall));
    }
    TypeStats writes = run.stats().allWrites(wall);
    List<TypeStats> rows = new ArrayList<>(types);
    rows.add(writes);
    List<ThresholdResult> thresholds = Thresholds.check(cfg.output().thresholds(), rows);
    RunSummary summary =
        new RunSummary(
            "albumstore-client",
            ClientVersion.version(),
            runId,
            startedAt.toString(),
            Instant.now().toString(),
            settings(),
            wall,
            writes.throughput(),
            types,
            writes,
            run.stats().failures(),
            run.stats().retryCauses(),
            broker(run.queue()),
            run.verification(),
            run.tiers() == null
                ? null
                : TierCalculator.table(run.tiers(), writes.meanMs(), writes.p99Ms(), writes.ok()),
            run.load().crashedThreads(),
            run.csvDropped(),
            run.load().steps(),
            thresholds,
            compareWithBaseline(rows),
            null,
            exitCode(run, types, thresholds));
    return write(summary, run, out);
  }

  /**
   * 130 when stopped; 1 for failed requests, a failed verification or a dead load thread; else 99
   * when a threshold was crossed, 0 when none was.
   */
  private static int exitCode(
      RunOutcome run, List<TypeStats> types, List<ThresholdResult> thresholds) {
    long failed = 0;
    for (TypeStats s : types) {
      failed += s.failed();
    }
    // Failed requests and failed verification keep their code: 99 says "only a threshold".
    return run.stoppedEarly()
        ? 130
        : failed > 0 || run.verification().mismatches() > 0 || run.load().crashedThreads() > 0
            ? 1
            : Thresholds.allPassed(thresholds) ? 0 : ClientCommand.THRESHOLD_EXIT;
  }

  /**
   * Writes the charts, {@code report.html}, {@code summary.json} and {@code steps.csv}, and prints
   * the report.
   *
   * @return the summary with the files written
   */
  private RunSummary write(RunSummary summary, RunOutcome run, PrintStream out) throws IOException {
    Path chart = dir.resolve("chart.png");
    Path spectrum = dir.resolve("spectrum.png");
    Path html = dir.resolve("report.html");
    Path json = dir.resolve("summary.json");
    byte[] png =
        draw(
            "chart",
            chart,
            () -> ChartRenderer.png(run.load().timeline(), "Album Store run " + runId));
    byte[] spectrumPng =
        draw(
            "percentile spectrum",
            spectrum,
            () ->
                SpectrumChart.png(
                    spectrumSeries(run.stats()), "Latency by percentile, run " + runId));
    RunSummary written =
        summary.withOutputs(
            new RunSummary.Outputs(
                dir.toString(),
                requestsCsv().toString(),
                timelineCsv().toString(),
                json.toString(),
                png == null ? null : chart.toString(),
                spectrumPng == null ? null : spectrum.toString(),
                html.toString()));
    Files.writeString(html, HtmlReport.render(written, png, spectrumPng), StandardCharsets.UTF_8);
    JsonSummary.write(written, json);
    if (!run.load().steps().isEmpty()) {
      StepsCsv.write(run.load().steps(), dir.resolve(StepsCsv.NAME));
    }
    out.print(ConsoleReport.render(written));
    out.flush();
    return written;
  }

  /** Draws a PNG. */
  private interface Drawing {
    byte[] png() throws IOException;
  }

  /**
   * Draws a chart and writes it to {@code file}.
   *
   * @return its bytes, or null when it could not be drawn (logged: a JVM without fonts cannot draw
   *     text)
   */
  private static byte[] draw(String what, Path file, Drawing drawing) {
    byte[] png = null;
    try {
      png = drawing.png();
      Files.write(file, png);
    } catch (IOException | RuntimeException | Error e) {
      log.warn("{} not drawn: {}", what, e.toString());
    }
    return png;
  }

  /** Successful requests' latency of every type that has some, and of all writes. */
  private static Map<String, Histogram> spectrumSeries(RunStatistics stats) {
    Map<String, Histogram> series = new LinkedHashMap<>();
    series.put(RunStatistics.ALL_WRITES, stats.allWritesHistogram());
    for (RequestType t : RequestType.values()) {
      Histogram h = stats.histogram(t);
      if (h.getTotalCount() > 0) {
        series.put(t.label(), h);
      }
    }
    return series;
  }

  /** This run beside --baseline's, or null without one (or when it cannot be read: logged). */
  private Comparison compareWithBaseline(List<TypeStats> rows) {
    if (cfg.output().baseline().isEmpty()) {
      return null;
    }
    Path baseline = cfg.output().baseline().get();
    try {
      RunSummary before = JsonSummary.read(baseline);
      List<TypeStats> beforeRows = new ArrayList<>(before.requests());
      beforeRows.add(before.allWrites());
      Path dirOfBaseline = baseline.toAbsolutePath().getParent();
      return Comparison.of(
          before.runId(),
          baseline.toString(),
          beforeRows,
          Timelines.series(dirOfBaseline.resolve(TIMELINE_CSV)),
          rows,
          Timelines.series(timelineCsv()));
    } catch (IOException | RuntimeException e) {
      log.warn("baseline {} not compared: {}", baseline, e.toString());
      return null;
    }
  }

  private RunSummary.Settings settings() {
    ClientConfig.Target target = cfg.target();
    ClientConfig.Groups groups = cfg.groups();
    ClientConfig.Writes writes = cfg.writes();
    ClientConfig.Pacing pacing = cfg.pacing();
    ClientConfig.Broker broker = cfg.broker();
    return new RunSummary.Settings(
        target.url(),
        groups.size(),
        groups.count(),
        groups.delay().toMillis() / 1000.0,
        writes.iterations(),
        groups.readers(),
        target.retries(),
        target.timeout().toMillis() / 1000.0,
        pacing.rate(),
        writes.warmupIterations(),
        image.source(),
        image.bytes().length,
        broker.queue(),
        broker.managementApi().map(ClientConfig.ManagementApi::url).orElse("none"),
        broker
            .amqpUri()
            .map(
                uri ->
                    new AmqpSettings(uri, broker.queue(), AmqpSettings.QueueType.CLASSIC)
                        .redactedUri())
            .orElse("none"),
        cfg.verification().enabled(),
        cfg.verification().drainTimeout().toMillis() / 1000.0,
        writes.workload().cliName(),
        writes.startupPhase(),
        pacing.duration().toMillis() / 1000.0,
        pacing.steps(),
        pacing.ramp(),
        pacing.stepDuration().toMillis() / 1000.0);
  }

  private RunSummary.Broker broker(RunOutcome.Queue queue) {
    BrokerSampler sampler = queue.sampler();
    QueueSample atEnd = queue.atEndOfLoad();
    DrainWaiter.Result drain = queue.drain();
    BrokerSampler.Aggregate a = sampler.aggregate();
    return new RunSummary.Broker(
        sampler.source(),
        cfg.broker().queue(),
        a.maxDepth(),
        atEnd.depthKnown() ? atEnd.depth() : null,
        drain.status().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
        drain.seconds(),
        a.meanPublishRate(),
        a.peakPublishRate(),
        a.meanDeliverRate(),
        a.peakDeliverRate());
  }
}
