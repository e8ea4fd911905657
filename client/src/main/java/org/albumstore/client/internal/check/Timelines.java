package org.albumstore.client.internal.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.stats.RunStatistics;

/**
 * Reads a run's {@code timeline.csv} back as per-second series for {@link Comparison}: req/s, p50
 * and p99 of each request type and of all writes. Seconds without a successful request have no
 * latency; the last, partial interval and intervals shorter than half a second are left out (their
 * rates would be noise themselves).
 */
public final class Timelines {
  private Timelines() {}

  /** The key of a series, e.g. {@code "all writes|p99 ms"}. */
  static String key(String row, String figure) {
    return row + "|" + figure;
  }

  /** The series of a {@code timeline.csv}; empty when the file is missing. */
  public static Map<String, double[]> series(Path timelineCsv) throws IOException {
    Map<String, double[]> out = new HashMap<>();
    if (!Files.isRegularFile(timelineCsv)) {
      return out;
    }
    List<String> lines = Files.readAllLines(timelineCsv, StandardCharsets.UTF_8);
    if (lines.size() < 3) {
      return out;
    }
    List<String> header = List.of(lines.get(0).split(",", -1));
    Map<String, String> prefixes = new HashMap<>();
    for (RequestType t : RequestType.values()) {
      prefixes.put(t.label(), t.slug());
    }
    prefixes.put(RunStatistics.ALL_WRITES, "writes");
    for (Map.Entry<String, String> p : prefixes.entrySet()) {
      int ok = header.indexOf(p.getValue() + "_ok");
      int p50 = header.indexOf(p.getValue() + "_p50_ms");
      int p99 = header.indexOf(p.getValue() + "_p99_ms");
      if (ok < 0 || p50 < 0 || p99 < 0) {
        continue;
      }
      List<Double> rates = new ArrayList<>();
      List<Double> p50s = new ArrayList<>();
      List<Double> p99s = new ArrayList<>();
      double previous = 0;
      // The last line is the partial interval taken when the load stopped.
      for (int i = 1; i < lines.size() - 1; i++) {
        String[] cells = lines.get(i).split(",", -1);
        double elapsed = Double.parseDouble(cells[0]);
        double seconds = elapsed - previous;
        previous = elapsed;
        long n = Long.parseLong(cells[ok]);
        if (seconds < 0.5) {
          continue;
        }
        rates.add(n / seconds);
        if (n > 0) {
          p50s.add(Double.parseDouble(cells[p50]));
          p99s.add(Double.parseDouble(cells[p99]));
        }
      }
      out.put(key(p.getKey(), "req/s"), toArray(rates));
      out.put(key(p.getKey(), "p50 ms"), toArray(p50s));
      out.put(key(p.getKey(), "p99 ms"), toArray(p99s));
    }
    return out;
  }

  private static double[] toArray(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
