package org.albumstore.client.internal.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.albumstore.client.JsonSummary;
import org.albumstore.client.MergedSummary;
import org.albumstore.client.RequestType;
import org.albumstore.client.RunSummary;
import org.albumstore.client.TypeStats;
import org.albumstore.client.internal.stats.IntervalLogs;
import org.albumstore.client.internal.stats.Latencies;
import org.albumstore.client.internal.stats.RunStatistics;

/**
 * Combines the figures of several clients' runs of one test: counts and rates add up; latency
 * percentiles come from the sum of the runs' {@code .hlog} histograms (percentiles cannot be
 * averaged). Reads files only; the verification is {@link MergeRun}'s.
 */
final class RunMerger {
  private RunMerger() {}

  /** One run directory, read. */
  public record Run(Path dir, RunSummary summary, Map<RequestType, Histogram> latencies) {}

  /**
   * Reads a run's {@code summary.json} and {@code .hlog} files.
   *
   * @throws IOException when a file is missing or unreadable
   */
  public static Run read(Path dir) throws IOException {
    Path json = dir.resolve("summary.json");
    if (!Files.isRegularFile(json)) {
      throw new IOException(dir + " holds no summary.json: not a client run directory");
    }
    RunSummary summary = JsonSummary.read(json);
    Map<RequestType, Histogram> latencies = new EnumMap<>(RequestType.class);
    for (RequestType t : RequestType.values()) {
      Path log = IntervalLogs.file(dir, t);
      Histogram sum = Latencies.newHistogram();
      if (Files.isRegularFile(log)) {
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        try {
          EncodableHistogram h;
          while ((h = reader.nextIntervalHistogram()) != null) {
            sum.add((Histogram) h);
          }
        } finally {
          reader.close();
        }
      }
      long ok = summary.stats(t.label()).ok();
      if (sum.getTotalCount() != ok) {
        throw new IOException(
            String.format(
                "%s: %s holds %d latencies but summary.json counts %d successful %s",
                dir, log.getFileName(), sum.getTotalCount(), ok, t.label()));
      }
      latencies.put(t, sum);
    }
    return new Run(dir, summary, latencies);
  }

  /**
   * The merged figures (verification and exit code to be filled in by the caller).
   *
   * @throws IllegalArgumentException when the runs are not of one test (different run IDs)
   */
  public static MergedSummary merge(List<Run> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("merge needs at least one run directory");
    }
    String runId = runs.get(0).summary().runId();
    for (Run r : runs) {
      if (!r.summary().runId().equals(runId)) {
        throw new IllegalArgumentException(
            "runs of different tests: "
                + runs.get(0).dir()
                + " is run "
                + runId
                + ", "
                + r.dir()
                + " is run "
                + r.summary().runId()
                + " (start the clients with the same --run-id)");
      }
    }
    Map<String, Histogram> latencies = latencies(runs);
    List<TypeStats> rows = new ArrayList<>();
    for (RequestType t : RequestType.values()) {
      rows.add(
          row(
              t.label(),
              latencies.get(t.label()),
              runs.stream().map(r -> r.summary().stats(t.label())).toList()));
    }
    TypeStats allWrites =
        row(
            RunStatistics.ALL_WRITES,
            latencies.get(RunStatistics.ALL_WRITES),
            runs.stream().map(r -> r.summary().allWrites()).toList());
    Map<String, Long> failures = new TreeMap<>();
    runs.forEach(r -> r.summary().failures().forEach((k, v) -> failures.merge(k, v, Long::sum)));
    return new MergedSummary(
        "albumstore-client merge",
        runId,
        runs.stream().map(r -> r.dir().toString()).toList(),
        runs.stream().mapToDouble(r -> r.summary().wallSeconds()).max().orElse(0),
        allWrites.throughput(),
        List.copyOf(rows),
        allWrites,
        failures,
        RunSummary.Verification.skipped("not verified yet"),
        0);
  }

  /** The runs' latencies added up: all writes first, then each request type, by report label. */
  public static Map<String, Histogram> latencies(List<Run> runs) {
    Map<String, Histogram> out = new LinkedHashMap<>();
    Histogram writes = Latencies.newHistogram();
    out.put(RunStatistics.ALL_WRITES, writes);
    for (RequestType t : RequestType.values()) {
      Histogram h = Latencies.newHistogram();
      runs.forEach(r -> h.add(r.latencies().get(t)));
      if (t.isWrite()) {
        writes.add(h);
      }
      out.put(t.label(), h);
    }
    return out;
  }

  private static TypeStats row(String label, Histogram h, List<TypeStats> perRun) {
    return RunStatistics.withThroughput(
        label,
        h,
        perRun.stream().mapToLong(TypeStats::ok).sum(),
        perRun.stream().mapToLong(TypeStats::failed).sum(),
        perRun.stream().mapToLong(TypeStats::retries).sum(),
        perRun.stream().mapToDouble(TypeStats::throughput).sum());
  }
}
