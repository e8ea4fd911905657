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
import org.albumstore.client.broker.BrokerSampler;
import org.albumstore.client.broker.DrainWaiter;
import org.albumstore.client.check.Comparison;
import org.albumstore.client.check.ThresholdResult;
import org.albumstore.client.check.Thresholds;
import org.albumstore.client.check.Timelines;
import org.albumstore.client.http.AlbumImage;
import org.albumstore.client.report.ChartRenderer;
import org.albumstore.client.report.ConsoleReport;
import org.albumstore.client.report.HtmlReport;
import org.albumstore.client.report.JsonSummary;
import org.albumstore.client.report.RunSummary;
import org.albumstore.client.report.SpectrumChart;
import org.albumstore.client.report.StepsCsv;
import org.albumstore.client.stats.QueueSample;
import org.albumstore.client.stats.RequestType;
import org.albumstore.client.stats.RunStatistics;
import org.albumstore.client.stats.StepRow;
import org.albumstore.client.stats.TimelineRow;
import org.albumstore.client.stats.TypeStats;
import org.albumstore.client.tiers.TierCalculator;
import org.albumstore.client.tiers.TierReadings;
import org.albumstore.client.verify.LedgerFile;
import org.albumstore.client.workload.WorkloadScheduler;
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
    return dir.resolve(LedgerFile.NAME);
  }

  Path timelineCsv() {
    return dir.resolve(TIMELINE_CSV);
  }

  RunSummary finish(
      RunStatistics stats,
      WorkloadScheduler.Times times,
      List<TimelineRow> timeline,
      BrokerSampler sampler,
      QueueSample atEndOfLoad,
      DrainWaiter.Result drain,
      RunSummary.Verification verification,
      TierReadings tiers,
      int crashedThreads,
      long csvDropped,
      List<StepRow> steps,
      boolean stoppedEarly,
      PrintStream out)
      throws IOException {
    double wall = times.seconds();
    List<TypeStats> types = new ArrayList<>();
    long failed = 0;
    for (RequestType t : RequestType.values()) {
      TypeStats s = stats.stats(t, wall);
      types.add(s);
      failed += s.failed();
    }
    TypeStats writes = stats.allWrites(wall);
    List<TypeStats> rows = new ArrayList<>(types);
    rows.add(writes);
    List<ThresholdResult> thresholds = Thresholds.check(cfg.thresholds(), rows);
    // Failed requests and failed verification keep their code: 99 says "only a threshold".
    int exitCode =
        stoppedEarly
            ? 130
            : failed > 0 || verification.mismatches() > 0 || crashedThreads > 0
                ? 1
                : Thresholds.allPassed(thresholds) ? 0 : ClientCommand.THRESHOLD_EXIT;
    Path chart = dir.resolve("chart.png");
    Path html = dir.resolve("report.html");
    Path json = dir.resolve("summary.json");
    RunSummary summary =
        new RunSummary(
            "albumstore-client",
            ClientMain.version(),
            runId,
            startedAt.toString(),
            Instant.now().toString(),
            settings(),
            wall,
            writes.throughput(),
            types,
            writes,
            stats.failures(),
            stats.retryCauses(),
            broker(sampler, atEndOfLoad, drain),
            verification,
            tiers == null
                ? null
                : TierCalculator.table(tiers, writes.meanMs(), writes.p99Ms(), writes.ok()),
            crashedThreads,
            csvDropped,
            steps,
            thresholds,
            compareWithBaseline(rows),
            null,
            exitCode);

    byte[] png = null;
    try {
      png = ChartRenderer.png(timeline, "Album Store run " + runId);
      Files.write(chart, png);
    } catch (IOException | RuntimeException | Error e) {
      log.warn("chart not drawn: {}", e.toString());
    }
    Path spectrum = dir.resolve("spectrum.png");
    byte[] spectrumPng = null;
    try {
      spectrumPng = SpectrumChart.png(spectrumSeries(stats), "Latency by percentile, run " + runId);
      Files.write(spectrum, spectrumPng);
    } catch (IOException | RuntimeException | Error e) {
      log.warn("percentile spectrum not drawn: {}", e.toString());
    }
    summary =
        summary.withOutputs(
            new RunSummary.Outputs(
                dir.toString(),
                requestsCsv().toString(),
                timelineCsv().toString(),
                json.toString(),
                png == null ? null : chart.toString(),
                spectrumPng == null ? null : spectrum.toString(),
                html.toString()));
    Files.writeString(html, HtmlReport.render(summary, png, spectrumPng), StandardCharsets.UTF_8);
    JsonSummary.write(summary, json);
    if (!steps.isEmpty()) {
      StepsCsv.write(steps, dir.resolve(StepsCsv.NAME));
    }
    out.print(ConsoleReport.render(summary));
    out.flush();
    return summary;
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
    if (cfg.baseline() == null) {
      return null;
    }
    try {
      RunSummary before = JsonSummary.read(cfg.baseline());
      List<TypeStats> beforeRows = new ArrayList<>(before.requests());
      beforeRows.add(before.allWrites());
      Path dirOfBaseline = cfg.baseline().toAbsolutePath().getParent();
      return Comparison.of(
          before.runId(),
          cfg.baseline().toString(),
          beforeRows,
          Timelines.series(dirOfBaseline.resolve(TIMELINE_CSV)),
          rows,
          Timelines.series(timelineCsv()));
    } catch (IOException | RuntimeException e) {
      log.warn("baseline {} not compared: {}", cfg.baseline(), e.toString());
      return null;
    }
  }

  private RunSummary.Settings settings() {
    return new RunSummary.Settings(
        cfg.url(),
        cfg.groupSize(),
        cfg.groups(),
        cfg.delay().toMillis() / 1000.0,
        cfg.iterations(),
        cfg.getThreads(),
        cfg.retries(),
        cfg.timeout().toMillis() / 1000.0,
        cfg.rate(),
        cfg.warmupIterations(),
        image.source(),
        image.bytes().length,
        cfg.queue(),
        cfg.rmqApi() == null ? "none" : cfg.rmqApi(),
        cfg.amqpUri() == null
            ? "none"
            : new AmqpSettings(cfg.amqpUri(), cfg.queue(), AmqpSettings.QueueType.CLASSIC)
                .redactedUri(),
        cfg.verify(),
        cfg.drainTimeout().toMillis() / 1000.0,
        cfg.workload().cliName(),
        cfg.startupPhase(),
        cfg.duration().toMillis() / 1000.0,
        cfg.rateSteps(),
        cfg.rateRamp(),
        cfg.stepDuration().toMillis() / 1000.0);
  }

  private RunSummary.Broker broker(
      BrokerSampler sampler, QueueSample atEnd, DrainWaiter.Result drain) {
    BrokerSampler.Aggregate a = sampler.aggregate();
    return new RunSummary.Broker(
        sampler.source(),
        cfg.queue(),
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
