package org.albumstore.client.internal.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;
import org.albumstore.client.QueueSample;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.stats.IntervalStats;
import org.albumstore.client.internal.stats.TimelineRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code timeline.csv}: one row per second, written (and flushed) as the run goes so that a long
 * run can be watched with {@code tail -f}. Unknown values are empty cells.
 */
public final class TimelineCsv implements Consumer<TimelineRow>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TimelineCsv.class);
  private final BufferedWriter out;
  private boolean broken;

  public TimelineCsv(Path file) throws IOException {
    out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    out.write(header());
    out.write('\n');
    out.flush();
  }

  public static String header() {
    StringBuilder h = new StringBuilder("elapsed_s,time");
    for (RequestType t : RequestType.values()) {
      String s = t.slug();
      h.append(',').append(s).append("_ok,").append(s).append("_failed,");
      h.append(s).append("_p50_ms,").append(s).append("_p99_ms");
    }
    h.append(",writes_ok,writes_failed,writes_p50_ms,writes_p99_ms");
    h.append(",queue_depth,queue_unacked,publish_rate,deliver_rate");
    return h.toString();
  }

  static String line(TimelineRow row) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%.3f", row.elapsedSeconds()))
        .append(',')
        .append(row.epochMillis());
    for (RequestType t : RequestType.values()) {
      cells(b, row.types().getOrDefault(t, IntervalStats.EMPTY));
    }
    cells(b, row.writes());
    QueueSample q = row.queue();
    b.append(',').append(q.depth() >= 0 ? Long.toString(q.depth()) : "");
    b.append(',').append(q.unacked() >= 0 ? Long.toString(q.unacked()) : "");
    b.append(',').append(rate(q.publishRate()));
    b.append(',').append(rate(q.deliverRate()));
    return b.toString();
  }

  private static void cells(StringBuilder b, IntervalStats s) {
    b.append(',').append(s.ok()).append(',').append(s.failed());
    b.append(',').append(String.format(Locale.ROOT, "%.3f", s.p50Ms()));
    b.append(',').append(String.format(Locale.ROOT, "%.3f", s.p99Ms()));
  }

  private static String rate(double r) {
    return Double.isNaN(r) ? "" : String.format(Locale.ROOT, "%.1f", r);
  }

  @Override
  public void accept(TimelineRow row) {
    if (broken) {
      return;
    }
    try {
      out.write(line(row));
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      broken = true;
      log.error("writing the timeline CSV failed; further rows are skipped", e);
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
