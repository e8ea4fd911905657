package org.albumstore.client.internal.tiers;

import java.util.Locale;

/** The {@link TierTable} as an HTML section for {@code report.html}. */
public final class TierTableHtml {
  private TierTableHtml() {}

  public static String render(TierTable t) {
    StringBuilder b = new StringBuilder(4096);
    b.append("<h2>Time spent per tier</h2>\n");
    b.append("<table><tr><th>write requests (ms)</th><th>mean</th><th>p50</th><th>p99</th>");
    b.append("<th>count</th></tr>\n");
    row(
        b,
        "<b>client: whole request, as the client measured it</b>",
        t.clientMeanMs(),
        null,
        t.clientP99Ms(),
        Long.toString(t.clientCount()));
    t.requestPath().stream().filter(r -> !r.derived()).forEach(r -> row(b, r));
    row(b, "= sum of the measured stages", t.requestPathSumMs(), null, null, "");
    t.requestPath().stream().filter(TierTable.Row::derived).forEach(r -> row(b, r));
    b.append("<tr><th colspan=\"5\">after the response, per write from its publish</th></tr>\n");
    for (TierTable.Row r : t.afterResponse()) {
      row(b, r);
    }
    row(b, "= sum after publishing", t.afterResponseSumMs(), null, null, "");
    row(b, t.visibility());
    b.append(
        "</table>\n<p>* derived: the client mean minus the measured stages, not measured itself. ");
    if (t.largestShare() != null) {
      b.append("Largest share of a request: ").append(esc(t.largestShare())).append(". ");
    }
    b.append("Metrics: server ").append(esc(t.serverMetrics()));
    b.append(", consumer ").append(esc(t.consumerMetrics())).append(".</p>\n");
    if (!t.notes().isEmpty()) {
      b.append("<ul>");
      t.notes().forEach(n -> b.append("<li>").append(esc(n)).append("</li>"));
      b.append("</ul>\n");
    }
    return b.toString();
  }

  private static void row(StringBuilder b, TierTable.Row r) {
    row(
        b,
        esc(r.label()) + (r.derived() ? " *" : ""),
        r.meanMs(),
        r.derived() ? null : r.p50Ms(),
        r.derived() ? null : r.p99Ms(),
        r.count() == null ? "-" : Long.toString(r.count()));
  }

  private static void row(
      StringBuilder b, String labelHtml, Double mean, Double p50, Double p99, String n) {
    b.append("<tr><td>").append(labelHtml).append("</td><td>").append(ms(mean));
    b.append("</td><td>").append(ms(p50)).append("</td><td>").append(ms(p99));
    b.append("</td><td>").append(n).append("</td></tr>\n");
  }

  private static String ms(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static String esc(String s) {
    return s == null
        ? ""
        : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
