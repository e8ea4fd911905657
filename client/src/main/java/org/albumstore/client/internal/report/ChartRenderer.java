package org.albumstore.client.internal.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.stats.TimelineRow;

/**
 * {@code chart.png}: three panels over the run's seconds — throughput, latency (p99 and p50 of
 * writes) and queue depth — drawn with Java2D, so the client needs no charting library. Headless:
 * no display is needed.
 */
public final class ChartRenderer {
  static final int WIDTH = 1000;
  static final int HEIGHT = 780;
  private static final int LEFT = 80;
  private static final int RIGHT = 24;
  private static final int TOP = 70;
  private static final int GAP = 46;
  private static final int BOTTOM = 40;
  private static final Color GRID = new Color(225, 225, 225);
  private static final Color TEXT = new Color(40, 40, 40);

  private ChartRenderer() {}

  private record Series(String name, Color color, double[] values) {}

  public static byte[] png(List<TimelineRow> rows, String title) throws IOException {
    // No temp-file cache: it registers a JVM shutdown hook on first use, which fails when the
    // report is written from the Ctrl-C path (during shutdown). The PNG is small; memory is fine.
    ImageIO.setUseCache(false);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (!ImageIO.write(render(rows, title), "png", out)) {
      throw new IOException("no PNG writer in this JVM");
    }
    return out.toByteArray();
  }

  public static BufferedImage render(List<TimelineRow> rows, String title) {
    BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      g.setColor(TEXT);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(title, LEFT, 24);

      Columns c = Columns.of(rows);
      double[] x = c.x();
      double maxX = x.length == 0 ? 1 : Math.max(1, x[x.length - 1]);
      int panelHeight = (HEIGHT - TOP - BOTTOM - 2 * GAP) / 3;
      int width = WIDTH - LEFT - RIGHT;
      panel(
          g,
          new Rectangle(LEFT, TOP, width, panelHeight),
          "throughput (req/s)",
          x,
          maxX,
          List.of(
              new Series("writes", new Color(31, 119, 180), c.writes()),
              new Series("GETs", new Color(44, 160, 44), c.reads()),
              new Series("failures", new Color(214, 39, 40), c.failures())));
      panel(
          g,
          new Rectangle(LEFT, TOP + panelHeight + GAP, width, panelHeight),
          "write latency (ms)",
          x,
          maxX,
          List.of(
              new Series("p99", new Color(255, 127, 14), c.p99()),
              new Series("p50", new Color(127, 127, 127), c.p50())));
      panel(
          g,
          new Rectangle(LEFT, TOP + 2 * (panelHeight + GAP), width, panelHeight),
          "queue depth (messages)",
          x,
          maxX,
          List.of(new Series("queue depth", new Color(148, 103, 189), c.depth())));
      g.setColor(TEXT);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      g.drawString("seconds since the load started", LEFT + width / 2 - 90, HEIGHT - 10);
    } finally {
      g.dispose();
    }
    return img;
  }

  /**
   * The charted figures of each timeline row: its time, write, read and failure rates, the writes'
   * p99 and p50 (NaN in a second without a successful write) and the queue depth (NaN unknown).
   */
  private record Columns(
      double[] x,
      double[] writes,
      double[] reads,
      double[] failures,
      double[] p99,
      double[] p50,
      double[] depth) {
    static Columns of(List<TimelineRow> rows) {
      int n = rows.size();
      Columns c =
          new Columns(
              new double[n],
              new double[n],
              new double[n],
              new double[n],
              new double[n],
              new double[n],
              new double[n]);
      for (int i = 0; i < n; i++) {
        TimelineRow r = rows.get(i);
        c.x[i] = r.elapsedSeconds();
        c.writes[i] = r.writeRate();
        c.reads[i] = r.rate(RequestType.GET_REVIEW) + r.rate(RequestType.GET_ALBUM);
        double secs = r.intervalSeconds() > 0 ? r.intervalSeconds() : 1;
        c.failures[i] = r.types().values().stream().mapToLong(s -> s.failed()).sum() / secs;
        c.p99[i] = r.writes().ok() > 0 ? r.writes().p99Ms() : Double.NaN;
        c.p50[i] = r.writes().ok() > 0 ? r.writes().p50Ms() : Double.NaN;
        c.depth[i] = r.queue().depthKnown() ? r.queue().depth() : Double.NaN;
      }
      return c;
    }
  }

  private static void panel(
      Graphics2D g, Rectangle a, String label, double[] x, double maxX, List<Series> series) {
    double maxY = 0;
    boolean any = false;
    for (Series s : series) {
      for (double v : s.values()) {
        if (!Double.isNaN(v)) {
          any = true;
          maxY = Math.max(maxY, v);
        }
      }
    }
    double yStep = niceCeiling(maxY / 5);
    maxY = Math.max(yStep, Math.ceil(maxY / yStep - 1e-9) * yStep);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (double v = 0; v <= maxY + yStep / 2; v += yStep) {
      int y = a.y + a.height - (int) Math.round(a.height * v / maxY);
      g.setColor(GRID);
      g.drawLine(a.x, y, a.x + a.width, y);
      g.setColor(TEXT);
      String tick = axisNumber(v);
      g.drawString(tick, a.x - 8 - g.getFontMetrics().stringWidth(tick), y + 4);
    }
    double xStep = niceCeiling(maxX / 8);
    for (double v = 0; v <= maxX + 1e-9; v += xStep) {
      int xx = a.x + (int) Math.round(a.width * v / maxX);
      g.setColor(GRID);
      g.drawLine(xx, a.y, xx, a.y + a.height);
      g.setColor(TEXT);
      String tick = axisNumber(v);
      g.drawString(tick, xx - g.getFontMetrics().stringWidth(tick) / 2, a.y + a.height + 14);
    }
    g.setColor(TEXT);
    g.drawRect(a.x, a.y, a.width, a.height);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
    g.drawString(label, a.x, a.y - 8);
    if (!any) {
      g.setFont(new Font(Font.SANS_SERIF, Font.ITALIC, 12));
      g.drawString("n/a", a.x + a.width / 2 - 10, a.y + a.height / 2);
      return;
    }
    int legendX = a.x + a.width;
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (int si = series.size() - 1; si >= 0; si--) {
      Series s = series.get(si);
      legendX -= g.getFontMetrics().stringWidth(s.name()) + 30;
      g.setColor(s.color());
      g.fillRect(legendX, a.y - 16, 14, 4);
      g.setColor(TEXT);
      g.drawString(s.name(), legendX + 18, a.y - 10);
      line(g, a, x, maxX, maxY, s);
    }
  }

  /** A polyline with gaps where the value is unknown (NaN). */
  private static void line(
      Graphics2D g, Rectangle a, double[] x, double maxX, double maxY, Series s) {
    Path2D.Double path = new Path2D.Double();
    boolean pen = false;
    for (int i = 0; i < x.length; i++) {
      double v = s.values()[i];
      if (Double.isNaN(v)) {
        pen = false;
        continue;
      }
      double px = a.x + a.width * x[i] / maxX;
      double py = a.y + a.height - a.height * v / maxY;
      if (pen) {
        path.lineTo(px, py);
      } else {
        path.moveTo(px, py);
        pen = true;
      }
    }
    g.setColor(s.color());
    g.setStroke(new BasicStroke(1.8f));
    g.draw(path);
    g.setStroke(new BasicStroke(1f));
  }

  /** The smallest of 1, 2, 2.5, 5 x 10^k that is at least {@code v} (1 for nothing). */
  static double niceCeiling(double v) {
    if (!(v > 0)) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= v) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  static String axisNumber(double v) {
    if (v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%,d", (long) v);
    }
    return String.format(Locale.ROOT, v < 10 ? "%.2f" : "%.1f", v);
  }
}
