package org.albumstore.client.internal.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.albumstore.client.RequestType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IntervalLogsTest {
  @TempDir Path dir;

  @Test
  void everyIntervalOfEveryTypeIsReadBackFromItsOwnLog() throws Exception {
    try (IntervalLogs logs = new IntervalLogs(dir, "run-1", 1_700_000_000_000L)) {
      for (int second = 1; second <= 3; second++) {
        Map<RequestType, Histogram> hs = new EnumMap<>(RequestType.class);
        for (RequestType t : RequestType.values()) {
          Histogram h = Latencies.newHistogram();
          h.recordValueWithCount(1_000L * (t.ordinal() + 1), second);
          hs.put(t, h);
        }
        logs.onInterval(
            second,
            1.0,
            new RunStatistics.Tick(
                Map.of(), IntervalStats.EMPTY, 0, 0, 0, hs, Latencies.newHistogram()));
      }
    }
    assertThat(IntervalLogs.file(dir, RequestType.POST_LIKE).getFileName().toString())
        .isEqualTo("post-review-like.hlog");
    for (RequestType t : RequestType.values()) {
      HistogramLogReader r = new HistogramLogReader(IntervalLogs.file(dir, t).toFile());
      Histogram sum = Latencies.newHistogram();
      int intervals = 0;
      EncodableHistogram e;
      while ((e = r.nextIntervalHistogram()) != null) {
        sum.add((Histogram) e);
        intervals++;
      }
      r.close();
      assertThat(intervals).isEqualTo(3);
      assertThat(sum.getTotalCount()).isEqualTo(6);
      assertThat(sum.getMaxValue())
          .isEqualTo(sum.highestEquivalentValue(1_000L * (t.ordinal() + 1)));
    }
  }
}
