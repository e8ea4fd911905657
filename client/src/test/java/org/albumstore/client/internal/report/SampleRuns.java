package org.albumstore.client.internal.report;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.albumstore.client.QueueSample;
import org.albumstore.client.RequestType;
import org.albumstore.client.RunSummary;
import org.albumstore.client.TypeStats;
import org.albumstore.client.internal.stats.IntervalStats;
import org.albumstore.client.internal.stats.TimelineRow;
import org.albumstore.client.internal.tiers.Histogram;
import org.albumstore.client.internal.tiers.TierCalculator;
import org.albumstore.client.internal.tiers.TierReadings;
import org.albumstore.client.internal.tiers.TierTable;
import org.albumstore.client.internal.verify.Mismatch;

/** Known summaries and timelines for the report tests. */
public final class SampleRuns {
  private SampleRuns() {}

  public static TypeStats stats(String type, long ok, long failed) {
    return new TypeStats(
        type, ok + failed, ok, failed, 3, ok / 2.0, 2.5, 0.8, 2.1, 4.4, 6.0, 9.5, 12.0);
  }

  public static RunSummary summary(long mismatches) {
    List<Mismatch> shown = new ArrayList<>();
    for (int i = 0; i < Math.min(mismatches, 2); i++) {
      shown.add(new Mismatch("album-" + i, "likes 1 (expected 2)"));
    }
    return new RunSummary(
        "albumstore-client",
        "1.0.0-SNAPSHOT",
        "20251122-083201-1a2b3c4d",
        "2025-11-22T08:32:01Z",
        "2025-11-22T08:32:09Z",
        new RunSummary.Settings(
            "http://127.0.0.1:8080/albumstore",
            10,
            2,
            2,
            100,
            3,
            5,
            30,
            0,
            0,
            "built-in",
            3471,
            "albumstore.writes",
            "http://127.0.0.1:15672",
            "amqp://guest:***@127.0.0.1:5672/%2F",
            true,
            120,
            "album-reviews",
            false,
            0,
            List.of(),
            List.of(),
            10),
        2.0,
        3000.0,
        List.of(
            stats("POST /albums", 1000, 0),
            stats("POST /review/like", 2000, 0),
            stats("POST /review/dislike", 999, 1),
            stats("GET /review", 500, 0)),
        stats("all writes", 3999, 1),
        Map.of("POST /review/dislike: 503", 1L),
        Map.of(),
        new RunSummary.Broker(
            "management-api",
            "albumstore.writes",
            120L,
            3L,
            "drained",
            1.5,
            2900.0,
            3100.0,
            2950.0,
            3050.0),
        new RunSummary.Verification(
            mismatches == 0 ? "ok" : "mismatches",
            1000,
            mismatches,
            shown,
            1,
            0.4,
            "queue drained"),
        tiers(),
        0,
        0,
        List.of(),
        List.of(),
        null,
        new RunSummary.Outputs(
            "out",
            "out/requests.csv",
            "out/timeline.csv",
            "out/summary.json",
            "out/chart.png",
            "out/spectrum.png",
            "out/report.html"),
        mismatches == 0 ? 0 : 1);
  }

  /** A time-per-tier table with every row known: a 2.5 ms client mean, 2.0 ms of it servlet. */
  public static TierTable tiers() {
    Map<String, Histogram> server = new HashMap<>();
    server.put("arrival", one(0.0003, 3999));
    server.put("validate", one(0.0002, 3999));
    server.put("channel_wait", one(0.0004, 3999));
    server.put("confirm", one(0.0010, 3999));
    server.put("respond", one(0.0003, 3999));
    server.put("complete", one(0.0001, 3999));
    Map<String, Histogram> consumer = new HashMap<>();
    consumer.put("queue", one(0.002, 3999));
    consumer.put("batch_wait", one(0.004, 3999));
    consumer.put("apply", one(0.003, 3999));
    consumer.put("commit", one(0.001, 3999));
    TierReadings r =
        new TierReadings(
            "http://127.0.0.1:8080/albumstore/metrics",
            "http://127.0.0.1:9091/metrics",
            one(0.0020, 3999),
            server,
            consumer,
            one(0.010, 3999),
            List.of());
    return TierCalculator.table(r, 2.5, 6.0, 3999);
  }

  /** {@code n} samples of {@code seconds} each, in a bucket ending just above. */
  public static Histogram one(double seconds, long n) {
    TreeMap<Double, Double> b = new TreeMap<>();
    b.put(seconds / 2, 0.0);
    b.put(seconds * 1.1, (double) n);
    b.put(Double.POSITIVE_INFINITY, (double) n);
    return new Histogram(n, seconds * n, b);
  }

  /**
   * {@code seconds} rows: rising throughput, a latency spike in the middle, a queue that fills and
   * drains.
   */
  public static List<TimelineRow> timeline(int seconds) {
    List<TimelineRow> rows = new ArrayList<>();
    for (int s = 1; s <= seconds; s++) {
      Map<RequestType, IntervalStats> types = new EnumMap<>(RequestType.class);
      long ok = 500L * Math.min(s, 5);
      types.put(RequestType.POST_ALBUMS, new IntervalStats(ok / 4, 0, 2, 5));
      types.put(RequestType.POST_LIKE, new IntervalStats(ok / 2, s == 3 ? 4 : 0, 2, 5));
      types.put(RequestType.POST_DISLIKE, new IntervalStats(ok / 4, 0, 2, 5));
      types.put(RequestType.GET_REVIEW, new IntervalStats(s > 2 ? 300 : 0, 0, 1, 3));
      double p99 = s == seconds / 2 ? 40 : 6;
      QueueSample q =
          s == 2
              ? QueueSample.unknown(0) // a gap in the queue readings
              : new QueueSample(0, "management-api", 30L * (seconds - s), 2, 2000, 1900);
      rows.add(
          new TimelineRow(
              s,
              1,
              1_700_000_000_000L + s * 1000L,
              types,
              new IntervalStats(ok, s == 3 ? 4 : 0, 2, p99),
              q));
    }
    return rows;
  }
}
