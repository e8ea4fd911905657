package org.albumstore.client.internal.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.albumstore.client.RunSummary;
import org.albumstore.client.TypeStats;
import org.albumstore.client.internal.check.Comparison;
import org.albumstore.client.internal.check.ThresholdResult;
import org.albumstore.client.internal.stats.StepRow;
import org.albumstore.client.internal.tiers.TierTableText;
import org.albumstore.client.internal.verify.Mismatch;

/**
 * The final report as plain-text tables for stdout. The words and the order of the lines are a
 * stable vocabulary (scripts grep for {@code throughput:}, {@code verified:}, ...), in the manner
 * of rabbitmq-perf-test: change them only with care.
 */
public final class ConsoleReport {
  private static final String ROW = "%-21s %9s %9s %8s %8s %10s %9s %9s %9s %9s %9s %9s %9s%n";

  private ConsoleReport() {}

  public static String render(RunSummary s) {
    StringBuilder b = new StringBuilder();
    RunSummary.Settings c = s.settings();
    b.append(f("albumstore-client %s, run %s%n", s.version(), s.runId()));
    b.append(f("url: %s%n", c.url()));
    b.append(
        f(
            "load: %d group(s) x %d threads, delay %s s, %s of %s%s, %d get"
                + " threads, %s, retries %d%n",
            c.groups(),
            c.groupSize(),
            num(c.delaySeconds()),
            bound(c),
            c.workload(),
            c.startupPhase() ? " after the start-up phase" : "",
            c.getThreads(),
            model(c),
            c.retries()));
    b.append('\n');
    b.append(requestTable(s.requests(), s.allWrites())).append('\n');
    b.append(f("wall time: %.3f s%n", s.wallSeconds()));
    b.append(f("throughput: %.1f req/s (successful writes)%n", s.throughput()));
    b.append(f("failures: %s%n", counts(s.failures())));
    b.append(f("retried attempts: %s%n", counts(s.retriedAttempts())));
    if (s.crashedThreads() > 0) {
      b.append(f("threads died: %d (see the log)%n", s.crashedThreads()));
    }
    if (s.csvRowsDropped() > 0) {
      b.append(f("csv rows dropped: %d (disk too slow)%n", s.csvRowsDropped()));
    }
    broker(b, s.broker());
    verification(b, s.verification());
    steps(b, s.steps());
    if (s.tiers() != null) {
      b.append('\n').append(TierTableText.render(s.tiers())).append('\n');
    }
    if (s.baseline() != null) {
      comparison(b, s.baseline());
    }
    thresholds(b, s.thresholds());
    if (s.outputs() != null) {
      b.append(f("outputs: %s%n", s.outputs().directory()));
    }
    b.append(f("exit code: %d%n", s.exitCode()));
    return b.toString();
  }

  private static void broker(StringBuilder b, RunSummary.Broker q) {
    b.append(
        f(
            "queue %s (%s): depth max %s, at end of load %s, drain %s%n",
            q.queue(),
            q.source(),
            orNa(q.maxDepth()),
            orNa(q.depthAtEndOfLoad()),
            q.drainSeconds() != null
                ? f("%s after %.1f s", q.drain(), q.drainSeconds())
                : q.drain()));
    b.append(
        f(
            "broker rates: publish mean %s msg/s (peak %s), deliver mean %s msg/s (peak %s)%n",
            rate(q.meanPublishRate()),
            rate(q.peakPublishRate()),
            rate(q.meanDeliverRate()),
            rate(q.peakDeliverRate())));
  }

  /** The {@code verified:} line and the first mismatches. */
  public static String verification(RunSummary.Verification v) {
    StringBuilder b = new StringBuilder();
    verification(b, v);
    return b.toString();
  }

  private static void verification(StringBuilder b, RunSummary.Verification v) {
    if ("skipped".equals(v.status())) {
      b.append(f("verified: skipped (%s)%n", v.note()));
      return;
    }
    b.append(f("verified: %d albums, %d mismatches%n", v.albums(), v.mismatches()));
    for (Mismatch m : v.firstMismatches()) {
      b.append(f("  mismatch %s: %s%n", m.albumId(), m.problem()));
    }
    if (v.mismatches() > v.firstMismatches().size()) {
      b.append(f("  ... and %d more%n", v.mismatches() - v.firstMismatches().size()));
    }
  }

  /**
   * The table of request types: the writes, all writes together, then the reads, and its legend.
   */
  public static String requestTable(List<TypeStats> requests, TypeStats allWrites) {
    StringBuilder b = new StringBuilder();
    b.append(
        f(
            ROW,
            "request type",
            "count",
            "ok",
            "failed",
            "retries",
            "req/s",
            "mean",
            "min",
            "p50",
            "p95",
            "p99",
            "p99.9",
            "max"));
    List<TypeStats> rows = new ArrayList<>();
    for (TypeStats t : requests) {
      if (!t.type().startsWith("GET")) {
        rows.add(t);
      }
    }
    rows.add(allWrites);
    requests.stream().filter(t -> t.type().startsWith("GET")).forEach(rows::add);
    for (TypeStats t : rows) {
      b.append(
          f(
              ROW,
              t.type(),
              t.count(),
              t.ok(),
              t.failed(),
              t.retries(),
              f("%.1f", t.throughput()),
              ms(t.meanMs()),
              ms(t.minMs()),
              ms(t.p50Ms()),
              ms(t.p95Ms()),
              ms(t.p99Ms()),
              ms(t.p999Ms()),
              ms(t.maxMs())));
    }
    b.append(
        "latency in ms of successful requests; req/s = successful requests per second of wall"
            + " time\n");
    return b.toString();
  }

  /** How long each writer runs: iterations, a duration, or both (whichever ends first). */
  static String bound(RunSummary.Settings c) {
    boolean timed = c.durationSeconds() > 0;
    boolean counted = c.iterations() != RunSummary.UNBOUNDED_ITERATIONS;
    String iterations = f("%d iterations per thread", c.iterations());
    String duration = "iterations for " + num(c.durationSeconds()) + " s";
    if (timed && counted) {
      return duration + " (at most " + c.iterations() + " per thread)";
    }
    return timed ? duration : iterations;
  }

  private static String model(RunSummary.Settings c) {
    if (c.rateRamp() != null && !c.rateRamp().isEmpty()) {
      return "open model ramped from "
          + num(c.rateRamp().get(0))
          + " to "
          + num(c.rateRamp().get(1))
          + " req/s over "
          + num(c.durationSeconds())
          + " s";
    }
    if (!c.rateSteps().isEmpty()) {
      List<String> rates = new ArrayList<>();
      c.rateSteps().forEach(r -> rates.add(num(r)));
      return "open model in steps of "
          + num(c.stepDurationSeconds())
          + " s at "
          + String.join(", ", rates)
          + " req/s";
    }
    return c.rate() > 0 ? "open model at " + num(c.rate()) + " req/s" : "closed model";
  }

  private static final String STEP_ROW = "%-6s %12s %12s %9s %8s %9s %9s %9s %11s%n";

  private static void steps(StringBuilder b, List<StepRow> steps) {
    if (steps.isEmpty()) {
      return;
    }
    b.append('\n');
    b.append(
        f(
            STEP_ROW,
            "step",
            "from s",
            "target req/s",
            "ok",
            "failed",
            "p50",
            "p99",
            "p99.9",
            "req/s"));
    for (StepRow r : steps) {
      b.append(
          f(
              STEP_ROW,
              r.step(),
              num(r.fromSeconds()) + "-" + num(r.toSeconds()),
              num(r.targetRate()),
              r.ok(),
              r.failed(),
              ms(r.p50Ms()),
              ms(r.p99Ms()),
              ms(r.p999Ms()),
              f("%.1f", r.rate())));
    }
    b.append(
        "rate steps: writes per step (of a ramp: target at the step's middle); latency in ms from");
    b.append(" the due time\n");
  }

  private static final String THRESHOLD_ROW = "  %-18s %-22s %-21s %12s %12s  %s%n";

  private static void thresholds(StringBuilder b, List<ThresholdResult> thresholds) {
    if (thresholds.isEmpty()) {
      return;
    }
    b.append(f(THRESHOLD_ROW, "threshold", "metric", "request type", "limit", "value", "result"));
    for (ThresholdResult t : thresholds) {
      b.append(
          f(
              THRESHOLD_ROW,
              t.option(),
              t.metric(),
              t.scope(),
              f("%.3f", t.limit()),
              f("%.3f", t.value()),
              t.result()));
    }
    long failed = thresholds.stream().filter(t -> !t.passed()).count();
    b.append(
        f(
            "thresholds: %s%n",
            failed == 0 ? "all passed" : failed + " of " + thresholds.size() + " failed"));
  }

  private static final String COMPARISON_ROW = "  %-21s %-9s %12s %12s %9s  %s%n";

  private static void comparison(StringBuilder b, Comparison c) {
    b.append(f("%ncompared with baseline run %s (%s)%n", c.baselineRunId(), c.baselineFile()));
    b.append(f(COMPARISON_ROW, "request type", "figure", "baseline", "this run", "change", ""));
    for (Comparison.Row r : c.rows()) {
      b.append(
          f(
              COMPARISON_ROW,
              r.row(),
              r.figure(),
              f("%.3f", r.baseline()),
              f("%.3f", r.current()),
              Double.isNaN(r.changePercent()) ? "n/a" : f("%+.1f%%", r.changePercent()),
              r.verdict()));
    }
    b.append(
        "change flagged CHANGED when beyond twice the standard error of the two runs' per-second"
            + " figures\n\n");
  }

  /** {@code none}, or {@code "key x n, ..."}. */
  public static String counts(Map<String, Long> m) {
    if (m.isEmpty()) {
      return "none";
    }
    List<String> parts = new ArrayList<>();
    m.forEach((k, v) -> parts.add(k + " x " + v));
    return String.join(", ", parts);
  }

  private static String orNa(Long v) {
    return v == null ? "n/a" : Long.toString(v);
  }

  private static String rate(Double r) {
    return r == null ? "n/a" : f("%.1f", r);
  }

  private static String ms(double v) {
    return f("%.3f", v);
  }

  static String num(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : f("%s", v);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
