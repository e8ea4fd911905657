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
import java.util.List;
import org.albumstore.client.broker.BrokerSampler;
import org.albumstore.client.broker.DrainWaiter;
import org.albumstore.client.broker.QueueSample;
import org.albumstore.client.http.AlbumImage;
import org.albumstore.client.http.RequestType;
import org.albumstore.client.report.ChartRenderer;
import org.albumstore.client.report.ConsoleReport;
import org.albumstore.client.report.HtmlReport;
import org.albumstore.client.report.JsonSummary;
import org.albumstore.client.report.RunSummary;
import org.albumstore.client.stats.RunStatistics;
import org.albumstore.client.stats.TimelineRow;
import org.albumstore.client.stats.TypeStats;
import org.albumstore.client.tiers.TierCalculator;
import org.albumstore.client.tiers.TierReadings;
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
  private static final Logger LOG = LoggerFactory.getLogger(RunReporter.class);

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

  Path timelineCsv() {
    return dir.resolve("timeline.csv");
  }

  RunSummary finish(
      RunStatistics stats,
      WorkloadScheduler.Times times,
      List<TimelineRow> rows,
      BrokerSampler sampler,
      QueueSample atEndOfLoad,
      DrainWaiter.Result drain,
      RunSummary.Verification verification,
      TierReadings tiers,
      int crashedThreads,
      long csvDropped,
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
    int exitCode =
        stoppedEarly
            ? 130
            : failed > 0 || verification.mismatches() > 0 || crashedThreads > 0 ? 1 : 0;
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
            null,
            exitCode);

    byte[] png = null;
    try {
      png = ChartRenderer.png(rows, "Album Store run " + runId);
      Files.write(chart, png);
    } catch (IOException | RuntimeException | Error e) {
      LOG.warn("chart not drawn: {}", e.toString());
    }
    summary =
        summary.withOutputs(
            new RunSummary.Outputs(
                dir.toString(),
                requestsCsv().toString(),
                timelineCsv().toString(),
                json.toString(),
                png == null ? null : chart.toString(),
                html.toString()));
    Files.writeString(html, HtmlReport.render(summary, png), StandardCharsets.UTF_8);
    JsonSummary.write(summary, json);
    out.print(ConsoleReport.render(summary));
    out.flush();
    return summary;
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
        cfg.startupPhase());
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
