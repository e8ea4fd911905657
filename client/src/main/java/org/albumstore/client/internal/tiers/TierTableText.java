package org.albumstore.client.internal.tiers;

import java.util.Locale;

/**
 * The console form of the {@link TierTable}. Its first line starts with {@code time spent per
 * tier}, a stable prefix scripts may grep for, like the rest of the report.
 */
public final class TierTableText {
  private static final String ROW = "  %-66s %10s %10s %10s %9s%n";

  private TierTableText() {}

  public static String render(TierTable t) {
    StringBuilder b = new StringBuilder();
    b.append(
        f(
            "%-68s %10s %10s %10s %9s%n",
            "time spent per tier (writes, ms)", "mean", "p50", "p99", "count"));
    requestPath(b, t);
    afterResponse(b, t);
    b.append("  * derived: the client mean minus the measured stages, not measured itself\n");
    if (t.servletMeanMs() != null && t.clientMeanMs() > 0) {
      b.append(
          f(
              "servlet time of a write: %.3f ms mean over %d requests, %.1f%% of the client mean%n",
              t.servletMeanMs(), t.servletCount(), 100 * t.servletMeanMs() / t.clientMeanMs()));
    }
    if (t.largestShare() != null) {
      b.append(f("largest share of a request: %s%n", t.largestShare()));
    }
    b.append(f("tier metrics: server %s, consumer %s%n", t.serverMetrics(), t.consumerMetrics()));
    for (String note : t.notes()) {
      b.append(f("  note: %s%n", note));
    }
    return b.toString();
  }

  /** The client's whole request, its measured stages, their sum and the derived rows. */
  private static void requestPath(StringBuilder b, TierTable t) {
    b.append(
        f(
            ROW,
            "client: whole request, as the client measured it",
            ms(t.clientMeanMs()),
            "",
            ms(t.clientP99Ms()),
            Long.toString(t.clientCount())));
    t.requestPath().stream().filter(r -> !r.derived()).forEach(r -> row(b, r));
    b.append(
        f(
            ROW,
            "= sum of the measured stages"
                + (t.requestPathSumMs() == null || t.clientMeanMs() <= 0
                    ? ""
                    : f(
                        " (%.1f%% of the client mean)",
                        100 * t.requestPathSumMs() / t.clientMeanMs())),
            ms(t.requestPathSumMs()),
            "",
            "",
            ""));
    t.requestPath().stream().filter(TierTable.Row::derived).forEach(r -> row(b, r));
  }

  /** The stages after the response, their sum and the time to visibility. */
  private static void afterResponse(StringBuilder b, TierTable t) {
    b.append("  after the response, per write from its publish:\n");
    for (TierTable.Row r : t.afterResponse()) {
      row(b, r);
    }
    Double visible = t.visibility().meanMs();
    b.append(
        f(
            ROW,
            "= sum after publishing"
                + (t.afterResponseSumMs() == null || visible == null || visible <= 0
                    ? ""
                    : f(
                        " (%.1f%% of the time to visibility)",
                        100 * t.afterResponseSumMs() / visible)),
            ms(t.afterResponseSumMs()),
            "",
            "",
            ""));
    row(b, t.visibility());
  }

  private static void row(StringBuilder b, TierTable.Row r) {
    b.append(
        f(
            ROW,
            r.label() + (r.derived() ? " *" : ""),
            ms(r.meanMs()),
            r.derived() ? "-" : ms(r.p50Ms()),
            r.derived() ? "-" : ms(r.p99Ms()),
            r.count() == null ? "-" : Long.toString(r.count())));
  }

  static String ms(Double v) {
    return v == null ? "n/a" : f("%.3f", v);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
