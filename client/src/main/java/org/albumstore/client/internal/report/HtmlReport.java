package org.albumstore.client.internal.report;

import java.util.Base64;
import java.util.Locale;
import org.albumstore.client.RunSummary;
import org.albumstore.client.TypeStats;
import org.albumstore.client.internal.tiers.TierTableHtml;
import org.albumstore.client.internal.verify.Mismatch;

/**
 * {@code report.html}: the run's tables and chart in one self-contained file (the chart is embedded
 * as a base64 PNG), so it can be mailed or attached to an issue as is.
 */
public final class HtmlReport {
  private HtmlReport() {}

  /**
   * @param chartPng the chart, or null when it could not be drawn
   */
  public static String render(RunSummary s, byte[] chartPng) {
    return render(s, chartPng, null);
  }

  /**
   * @param chartPng the chart over time, or null when it could not be drawn
   * @param spectrumPng the percentile spectrum ({@link SpectrumChart}), or null
   */
  public static String render(RunSummary s, byte[] chartPng, byte[] spectrumPng) {
    StringBuilder b = new StringBuilder(16_384);
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    b.append("<title>Album Store load run ").append(esc(s.runId())).append("</title>\n");
    b.append(
        "<style>body{font-family:sans-serif;margin:2em;color:#222}"
            + "table{border-collapse:collapse;margin:1em 0}"
            + "th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}"
            + "th:first-child,td:first-child{text-align:left}"
            + "th{background:#f3f3f3}.bad{color:#b00;font-weight:bold}"
            + ".ok{color:#070;font-weight:bold}pre{background:#f7f7f7;padding:1em}</style>\n");
    b.append("</head><body>\n");
    b.append("<h1>Album Store load run ").append(esc(s.runId())).append("</h1>\n");
    settings(b, s);
    verdict(b, s);
    b.append("<table><tr><th>request type</th><th>count</th><th>ok</th><th>failed</th>");
    b.append("<th>retries</th><th>req/s</th><th>mean</th><th>min</th><th>p50</th><th>p95</th>");
    b.append("<th>p99</th><th>p99.9</th><th>max</th></tr>\n");
    for (TypeStats t : s.requests()) {
      if (!t.type().startsWith("GET")) {
        row(b, t);
      }
    }
    row(b, s.allWrites());
    s.requests().stream().filter(t -> t.type().startsWith("GET")).forEach(t -> row(b, t));
    b.append("</table>\n<p>Latency in ms of successful requests; req/s = successful requests per");
    b.append(" second of wall time.</p>\n");
    if (s.tiers() != null) {
      b.append(TierTableHtml.render(s.tiers()));
    }
    if (chartPng != null) {
      b.append(
              "<p><img alt=\"throughput, latency and queue depth over time\" src=\"data:image/png;base64,")
          .append(Base64.getEncoder().encodeToString(chartPng))
          .append("\"></p>\n");
    }
    if (spectrumPng != null) {
      b.append("<p><img alt=\"latency by percentile (percentile spectrum)\" src=\"")
          .append("data:image/png;base64,")
          .append(Base64.getEncoder().encodeToString(spectrumPng))
          .append("\"></p>\n");
    }
    b.append("<h2>Full report</h2>\n<pre>").append(esc(ConsoleReport.render(s))).append("</pre>\n");
    b.append("</body></html>\n");
    return b.toString();
  }

  /** One line of what was run: the server, the load's shape and when it started. */
  private static void settings(StringBuilder b, RunSummary s) {
    RunSummary.Settings c = s.settings();
    b.append("<p>")
        .append(esc(c.url()))
        .append(" &middot; ")
        .append(c.groups())
        .append(" group(s) &times; ")
        .append(c.groupSize())
        .append(" threads, ")
        .append(esc(ConsoleReport.bound(c)))
        .append(" of ")
        .append(esc(c.workload()))
        .append(c.startupPhase() ? " after the start-up phase, " : ", ")
        .append(c.getThreads())
        .append(" get threads &middot; started ")
        .append(esc(s.startedAt()))
        .append("</p>\n");
  }

  private static void verdict(StringBuilder b, RunSummary s) {
    RunSummary.Verification v = s.verification();
    boolean good = s.exitCode() == 0;
    b.append("<p class=\"").append(good ? "ok" : "bad").append("\">");
    b.append(
        String.format(Locale.ROOT, "%.1f req/s over %.1f s; ", s.throughput(), s.wallSeconds()));
    if ("skipped".equals(v.status())) {
      b.append("verification skipped (").append(esc(v.note())).append(")");
    } else {
      b.append("verified: ").append(v.albums()).append(" albums, ");
      b.append(v.mismatches()).append(" mismatches");
    }
    b.append("; exit code ").append(s.exitCode()).append("</p>\n");
    if (!v.firstMismatches().isEmpty()) {
      b.append("<ul>");
      for (Mismatch m : v.firstMismatches()) {
        b.append("<li>").append(esc(m.albumId())).append(": ").append(esc(m.problem()));
        b.append("</li>");
      }
      b.append("</ul>\n");
    }
  }

  private static void row(StringBuilder b, TypeStats t) {
    b.append("<tr><td>").append(esc(t.type())).append("</td>");
    cell(b, Long.toString(t.count()));
    cell(b, Long.toString(t.ok()));
    cell(b, Long.toString(t.failed()));
    cell(b, Long.toString(t.retries()));
    cell(b, String.format(Locale.ROOT, "%.1f", t.throughput()));
    for (double ms :
        new double[] {
          t.meanMs(), t.minMs(), t.p50Ms(), t.p95Ms(), t.p99Ms(), t.p999Ms(), t.maxMs()
        }) {
      cell(b, String.format(Locale.ROOT, "%.3f", ms));
    }
    b.append("</tr>\n");
  }

  private static void cell(StringBuilder b, String v) {
    b.append("<td>").append(v).append("</td>");
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
