package org.albumstore.client.internal.stats;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.HistogramLogWriter;
import org.albumstore.client.RequestType;

/**
 * The run's latency histograms as HdrHistogram interval logs, one {@code .hlog} per request type
 * and one interval per timeline second: the standard format (HistogramLogProcessor, the
 * HdrHistogram plotter, {@code merge}) from which several clients' runs can be combined exactly,
 * because histograms add up where percentiles do not.
 */
public final class IntervalLogs implements IntervalSink, AutoCloseable {
  private static final double MICROS_PER_MILLI = 1_000.0;
  private final Map<RequestType, HistogramLogWriter> writers = new EnumMap<>(RequestType.class);

  /**
   * @param startEpochMillis the log's base time: interval times are seconds after it
   */
  public IntervalLogs(Path dir, String runId, long startEpochMillis) throws IOException {
    try {
      for (RequestType t : RequestType.values()) {
        HistogramLogWriter w = new HistogramLogWriter(file(dir, t).toFile());
        writers.put(t, w);
        w.outputComment("albumstore-client run " + runId + ", " + t.label() + ", microseconds");
        w.outputLogFormatVersion();
        w.setBaseTime(startEpochMillis);
        w.outputStartTime(startEpochMillis);
        w.outputBaseTime(startEpochMillis);
        w.outputLegend();
      }
    } catch (FileNotFoundException e) {
      close();
      throw e;
    }
  }

  /** The log of {@code type} in a run's directory, e.g. {@code post-review-like.hlog}. */
  public static Path file(Path dir, RequestType type) {
    String slug =
        type.label().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("-$", "");
    return dir.resolve(slug + ".hlog");
  }

  @Override
  public synchronized void onInterval(
      double endSeconds, double intervalSeconds, RunStatistics.Tick tick) {
    tick.histograms()
        .forEach(
            (type, h) -> {
              HistogramLogWriter w = writers.get(type);
              if (w != null) {
                // Times from the timeline (seconds since the load started = the base time);
                // the max column in ms (values are µs).
                w.outputIntervalHistogram(
                    endSeconds - intervalSeconds, endSeconds, h, MICROS_PER_MILLI);
              }
            });
  }

  @Override
  public synchronized void close() {
    writers.values().forEach(HistogramLogWriter::close);
    writers.clear();
  }
}
