package org.albumstore.client.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.albumstore.client.internal.stats.TimelineRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineCsvTest {
  @Test
  void oneRowPerSecondWithEveryColumnOfTheHeader(@TempDir Path dir) throws Exception {
    List<TimelineRow> rows = SampleRuns.timeline(6);
    Path file = dir.resolve("timeline.csv");
    try (TimelineCsv csv = new TimelineCsv(file)) {
      rows.forEach(csv);
    }
    List<String> lines = Files.readAllLines(file);
    List<String> header = Arrays.asList(lines.get(0).split(","));
    assertThat(header)
        .contains(
            "elapsed_s",
            "post_albums_ok",
            "post_review_like_failed",
            "get_review_p99_ms",
            "writes_p99_ms",
            "queue_depth",
            "publish_rate",
            "deliver_rate");
    assertThat(lines).hasSize(7);
    for (int i = 1; i <= 6; i++) {
      String[] cells = lines.get(i).split(",", -1);
      assertThat(cells).hasSize(header.size());
      assertThat(Double.parseDouble(cells[header.indexOf("elapsed_s")])).isEqualTo(i);
      assertThat(Long.parseLong(cells[header.indexOf("writes_ok")]))
          .isEqualTo(rows.get(i - 1).writes().ok());
    }
    String[] third = lines.get(3).split(",", -1);
    assertThat(third[header.indexOf("post_review_like_failed")]).isEqualTo("4");
    String[] second = lines.get(2).split(",", -1);
    assertThat(second[header.indexOf("queue_depth")])
        .as("unknown depth is an empty cell")
        .isEmpty();
    assertThat(second[header.indexOf("publish_rate")]).isEmpty();
    assertThat(third[header.indexOf("queue_depth")]).isEqualTo("90");
  }
}
