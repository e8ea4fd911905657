package org.albumstore.client.internal.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.QueueSample;
import org.albumstore.client.RequestType;
import org.junit.jupiter.api.Test;

class TimelineTest {
  @Test
  void stopTakesAFinalIntervalSoNothingRecordedIsLost() throws Exception {
    RunStatistics stats = new RunStatistics();
    List<TimelineRow> sunk = new ArrayList<>();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    Timeline timeline =
        new Timeline(
            stats,
            () -> new QueueSample(0, "management-api", 42, 0, 10, 9),
            RunClock.start(),
            sunk::add,
            new PrintStream(progress, true, StandardCharsets.UTF_8));
    timeline.start();
    stats.onCompleted(new Completion(RequestType.POST_ALBUMS, 0, 3_000_000, "200", true, 1));
    stats.onCompleted(new Completion(RequestType.POST_LIKE, 0, 1_000_000, "503", false, 6));
    List<TimelineRow> rows = timeline.stop();

    assertThat(rows).isNotEmpty().isEqualTo(sunk);
    long ok = rows.stream().mapToLong(r -> r.writes().ok()).sum();
    long failed = rows.stream().mapToLong(r -> r.writes().failed()).sum();
    assertThat(ok).isEqualTo(1);
    assertThat(failed).isEqualTo(1);
    assertThat(stats.stats(RequestType.POST_ALBUMS, 1).p50Ms()).isCloseTo(3.0, within(0.003));
    String line =
        progress.toString(StandardCharsets.UTF_8).lines().reduce((a, b) -> b).orElseThrow();
    assertThat(line)
        .startsWith("time ")
        .contains("requests 2,")
        .contains("p99 3.0 ms")
        .contains("failed 1")
        .endsWith("queue depth 42");
  }
}
