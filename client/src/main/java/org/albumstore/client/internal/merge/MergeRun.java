package org.albumstore.client.internal.merge;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.albumstore.client.JsonSummary;
import org.albumstore.client.MergedSummary;
import org.albumstore.client.RequestType;
import org.albumstore.client.RunSummary;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.internal.http.AlbumImage;
import org.albumstore.client.internal.http.AlbumStoreClient;
import org.albumstore.client.internal.http.RetryPolicy;
import org.albumstore.client.internal.http.Sleeper;
import org.albumstore.client.internal.http.Transport;
import org.albumstore.client.internal.http.TransportKind;
import org.albumstore.client.internal.report.ConsoleReport;
import org.albumstore.client.internal.report.SpectrumChart;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.client.internal.stats.RunStatistics;
import org.albumstore.client.internal.verify.AcknowledgedCsv;
import org.albumstore.client.internal.verify.AcknowledgedWrites;
import org.albumstore.client.internal.verify.VerificationResult;
import org.albumstore.client.internal.verify.Verifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code merge}: reads the runs ({@link RunMerger}), verifies the union of their acknowledged
 * writes against the server, prints the merged report and, with {@code --out}, writes its {@code
 * summary.json} and {@code spectrum.png}.
 */
final class MergeRun {
  private static final Logger log = LoggerFactory.getLogger(MergeRun.class);

  private final MergeCommand cmd;

  MergeRun(MergeCommand cmd) {
    this.cmd = cmd;
  }

  /** The server could not be reached for the verification. */
  static final class UnreachableServerException extends IOException {
    UnreachableServerException(String url, IOException cause) {
      super("cannot reach " + url + ": " + cause, cause);
    }
  }

  /** Call with a validated command ({@link MergeCommand#validate()}). */
  MergedSummary run(PrintStream out) throws IOException, InterruptedException {
    List<RunMerger.Run> runs = new ArrayList<>();
    for (Path d : cmd.dirs) {
      runs.add(RunMerger.read(d));
    }
    MergedSummary merged = RunMerger.merge(runs);
    RunSummary.Verification verification =
        cmd.verify ? verify(runs) : RunSummary.Verification.skipped("--no-verify");
    long failed = merged.allWrites().failed();
    for (RequestType t : RequestType.values()) {
      failed += t.isWrite() ? 0 : merged.requests().get(t.ordinal()).failed();
    }
    int exitCode = failed > 0 || verification.mismatches() > 0 ? 1 : 0;
    merged =
        new MergedSummary(
            merged.tool(),
            merged.runId(),
            merged.runs(),
            merged.wallSeconds(),
            merged.throughput(),
            merged.requests(),
            merged.allWrites(),
            merged.failures(),
            verification,
            exitCode);
    if (cmd.out != null) {
      write(merged, runs, cmd.out);
    }
    out.print(render(merged));
    out.flush();
    return merged;
  }

  private RunSummary.Verification verify(List<RunMerger.Run> runs)
      throws IOException, InterruptedException {
    AcknowledgedWrites union = new AcknowledgedWrites();
    for (RunMerger.Run r : runs) {
      Path file = r.dir().resolve(AcknowledgedCsv.NAME);
      if (!Files.isRegularFile(file)) {
        throw new IOException(
            r.dir() + " holds no " + AcknowledgedCsv.NAME + " (an older client?)");
      }
      AcknowledgedCsv.readInto(file, union);
    }
    String url = cmd.url != null ? cmd.url : runs.get(0).summary().settings().url();
    // The classic transport (no event loops: one ioThreads argument it does not use).
    try (Transport transport =
        TransportKind.CLASSIC.open(url, cmd.verifyThreads, 1, seconds(cmd.timeout))) {
      try {
        transport.send(ApiRequest.getReview("albumstore-client-preflight"));
      } catch (IOException e) {
        throw new UnreachableServerException(url, e);
      }
      AlbumStoreClient reader =
          AlbumStoreClient.create(
              transport, RetryPolicy.of(0), RequestObserver.NONE, AlbumImage.builtIn());
      log.info("verifying {} albums of {} runs against {}", union.albums(), runs.size(), url);
      // The clients have finished; the queue may still hold their last writes, so disagreeing
      // albums are re-read until they agree or the time is up (no queue figures here).
      VerificationResult v =
          new Verifier(reader, cmd.verifyThreads, Sleeper.REAL)
              .verify(union, seconds(cmd.drainTimeout));
      return new RunSummary.Verification(
          v.ok() ? "ok" : "mismatches",
          v.albums(),
          v.mismatches(),
          v.firstMismatches(),
          v.rounds(),
          v.seconds(),
          "union of " + runs.size() + " runs' acknowledged writes, against " + url);
    }
  }

  private static void write(MergedSummary s, List<RunMerger.Run> runs, Path dir)
      throws IOException {
    Files.createDirectories(dir);
    JsonSummary.writeValue(s, dir.resolve("summary.json"));
    Map<String, Histogram> all = new LinkedHashMap<>();
    // All writes, then the request types that have any latency.
    RunMerger.latencies(runs)
        .forEach(
            (label, h) -> {
              if (label.equals(RunStatistics.ALL_WRITES) || h.getTotalCount() > 0) {
                all.put(label, h);
              }
            });
    try {
      Files.write(
          dir.resolve("spectrum.png"),
          SpectrumChart.png(all, "Latency by percentile, merged run " + s.runId()));
    } catch (IOException | RuntimeException | Error e) {
      log.warn("percentile spectrum not drawn: {}", e.toString());
    }
  }

  static String render(MergedSummary s) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "albumstore-client merge of run %s: %d runs (%s)%n%n",
            s.runId(),
            s.runs().size(),
            String.join(", ", s.runs())));
    b.append(ConsoleReport.requestTable(s.requests(), s.allWrites()));
    b.append("req/s summed over the runs; percentiles from their merged histograms\n\n");
    b.append(String.format(Locale.ROOT, "wall time: %.3f s (the longest run)%n", s.wallSeconds()));
    b.append(
        String.format(
            Locale.ROOT,
            "throughput: %.1f req/s (successful writes, %d clients)%n",
            s.throughput(),
            s.runs().size()));
    b.append("failures: ").append(ConsoleReport.counts(s.failures())).append('\n');
    b.append(ConsoleReport.verification(s.verification()));
    b.append(String.format(Locale.ROOT, "exit code: %d%n", s.exitCode()));
    return b.toString();
  }

  private static Duration seconds(double s) {
    return Duration.ofNanos(Math.round(s * 1e9));
  }
}
