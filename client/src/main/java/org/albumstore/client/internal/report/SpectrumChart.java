package org.albumstore.client.internal.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * {@code spectrum.png}: latency by percentile (the "percentile spectrum" of HdrHistogram's
 * plotter), one line per request type: the x axis is {@code log10(1 / (1 - percentile))}, so 90 %,
 * 99 %, 99.9 % ... are equally spaced and the tail gets the room it deserves; y is the latency in
 * ms. Drawn with Java2D, like {@link ChartRenderer}.
 */
public final class SpectrumChart {
  static final int WIDTH = 1000;
  static final int HEIGHT = 520;
  private static final int LEFT = 80;
  private static final int RIGHT = 24;
  private static final int TOP = 60;
  private static final int BOTTOM = 50;

  /** HdrHistogram's plotter resolution: points per halving of the distance to 100 %. */
  private static final int TICKS_PER_HALF_DISTANCE = 5;

  private static final Color[] COLORS = {
    new Color(31, 119, 180),
    new Color(255, 127, 14),
    new Color(44, 160, 44),
    new Color(214, 39, 40),
    new Color(148, 103, 189),
    new Color(140, 86, 75)
  };
  private static final Color GRID = new Color(225, 225, 225);
  private static final Color TEXT = new Color(40, 40, 40);

  private SpectrumChart() {}

  /** One line: x = log10(1 / (1 - p)), y = ms. */
  record Line(String name, double[] x, double[] y) {}

  /**
   * @param series latency histograms in µs by name, drawn in this order
   */
  public static byte[] png(Map<String, Histogram> series, String title) throws IOException {
    ImageIO.setUseCache(false); // see ChartRenderer#png
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (!ImageIO.write(render(series, title), "png", out)) {
      throw new IOException("no PNG writer in this JVM");
    }
    return out.toByteArray();
  }

  /** The points of one histogram's spectrum; the 100th percentile (x infinite) is left out. */
  static Line line(String name, Histogram h) {
    List<double[]> points = new ArrayList<>();
    for (HistogramIterationValue v : h.percentiles(TICKS_PER_HALF_DISTANCE)) {
      double p = v.getPercentileLevelIteratedTo() / 100.0;
      if (p >= 1.0) {
        break;
      }
      points.add(new double[] {Math.log10(1 / (1 - p)), v.getValueIteratedTo() / 1_000.0});
    }
    double[] x = new double[points.size()];
    double[] y = new double[points.size()];
    for (int i = 0; i < x.length; i++) {
      x[i] = points.get(i)[0];
      y[i] = points.get(i)[1];
    }
    return new Line(name, x, y);
  }

  static BufferedImage render(Map<String, Histogram> series, String title) {
    List<Line> lines = new ArrayList<>();
    series.forEach((name, h) -> lines.add(line(name, h)));
    double maxX = 3; // at least to 99.9 %
    double maxY = 0;
    for (Line l : lines) {
      for (int i = 0; i < l.x().length; i++) {
        maxX = Math.max(maxX, Math.ceil(l.x()[i]));
        maxY = Math.max(maxY, l.y()[i]);
      }
    }
    double yStep = ChartRenderer.niceCeiling(maxY / 5);
    maxY = Math.max(yStep, Math.ceil(maxY / yStep - 1e-9) * yStep);

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
      int w = WIDTH - LEFT - RIGHT;
      int h = HEIGHT - TOP - BOTTOM;
      drawAxes(g, w, h, maxX, maxY, yStep);
      drawLines(g, lines, w, h, maxX, maxY);
    } finally {
      g.dispose();
    }
    return img;
  }

  /** The grid, its ticks and the axes' labels, in a plot area {@code w} by {@code h}. */
  private static void drawAxes(Graphics2D g, int w, int h, double maxX, double maxY, double yStep) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (double v = 0; v <= maxY + yStep / 2; v += yStep) {
      int y = TOP + h - (int) Math.round(h * v / maxY);
      g.setColor(GRID);
      g.drawLine(LEFT, y, LEFT + w, y);
      g.setColor(TEXT);
      String tick = ChartRenderer.axisNumber(v);
      g.drawString(tick, LEFT - 8 - g.getFontMetrics().stringWidth(tick), y + 4);
    }
    for (int k = 0; k <= (int) maxX; k++) {
      int x = LEFT + (int) Math.round(w * k / maxX);
      g.setColor(GRID);
      g.drawLine(x, TOP, x, TOP + h);
      g.setColor(TEXT);
      String tick = percentileLabel(k);
      g.drawString(tick, x - g.getFontMetrics().stringWidth(tick) / 2, TOP + h + 14);
    }
    g.drawRect(LEFT, TOP, w, h);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
    g.drawString("latency (ms)", LEFT, TOP - 8);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.drawString("percentile (log scale of 1 / (1 - p))", LEFT + w / 2 - 110, HEIGHT - 12);
  }

  /** Each line, and its key in the legend above the plot (right-aligned, in series order). */
  private static void drawLines(
      Graphics2D g, List<Line> lines, int w, int h, double maxX, double maxY) {
    int legendX = LEFT + w;
    for (int i = lines.size() - 1; i >= 0; i--) {
      Line l = lines.get(i);
      Color c = COLORS[i % COLORS.length];
      legendX -= g.getFontMetrics().stringWidth(l.name()) + 30;
      g.setColor(c);
      g.fillRect(legendX, TOP - 16, 14, 4);
      g.setColor(TEXT);
      g.drawString(l.name(), legendX + 18, TOP - 10);
      Path2D.Double path = new Path2D.Double();
      for (int p = 0; p < l.x().length; p++) {
        double px = LEFT + w * l.x()[p] / maxX;
        double py = TOP + h - h * l.y()[p] / maxY;
        if (p == 0) {
          path.moveTo(px, py);
        } else {
          path.lineTo(px, py);
        }
      }
      g.setColor(c);
      g.setStroke(new BasicStroke(1.8f));
      g.draw(path);
      g.setStroke(new BasicStroke(1f));
    }
  }

  /** 0 → 0%, 1 → 90%, 2 → 99%, 3 → 99.9% ... */
  static String percentileLabel(int k) {
    return switch (k) {
      case 0 -> "0%";
      case 1 -> "90%";
      case 2 -> "99%";
      default -> "99." + "9".repeat(k - 2) + "%";
    };
  }
}
