package org.albumstore.client.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.stats.Completion;
import org.albumstore.client.internal.stats.RunClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvRequestLogTest {
  @Test
  void everyCompletionBecomesOneRowThatParsesBack(@TempDir Path dir) throws Exception {
    RunClock clock = new RunClock(1_000_000_000L, 1_700_000_000_000L);
    Path file = dir.resolve("requests.csv");
    int n = 5_000;
    try (CsvRequestLog log = new CsvRequestLog(file, clock, 10_000)) {
      for (int i = 0; i < n; i++) {
        RequestType t = RequestType.values()[i % 4];
        long start = 1_000_000_000L + i * 1_000_000L; // i ms after the origin
        long latency = 1_234_567L + i; // 1.234567 ms + i ns
        boolean ok = i % 10 != 0;
        log.onCompleted(
            new Completion(
                t, start, start + latency, ok ? "200" : "SocketTimeoutException", ok, ok ? 1 : 6));
      }
      assertThat(log.dropped()).isZero();
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertThat(lines.get(0)).isEqualTo(CsvRequestLog.HEADER);
    assertThat(lines).hasSize(n + 1);
    for (int i = 0; i < n; i++) {
      String[] cells = lines.get(i + 1).split(",");
      assertThat(cells).hasSize(5);
      assertThat(Long.parseLong(cells[0])).isEqualTo(1_700_000_000_000L + i);
      assertThat(RequestType.fromLabel(cells[1])).isEqualTo(RequestType.values()[i % 4]);
      assertThat(Double.parseDouble(cells[2])).isEqualTo((1_234_567L + i) / 1_000 / 1000.0);
      assertThat(cells[3]).isEqualTo(i % 10 != 0 ? "200" : "SocketTimeoutException");
      assertThat(Integer.parseInt(cells[4])).isEqualTo(i % 10 != 0 ? 1 : 6);
    }
  }

  @Test
  void latencyIsWrittenInMillisecondsToTheMicrosecond() throws Exception {
    RunClock clock = new RunClock(0, 0);
    StringBuilder line = new StringBuilder();
    CsvRequestLog log = new CsvRequestLog(Files.createTempFile("csv", ".csv"), clock, 1);
    try {
      log.format(new Completion(RequestType.POST_ALBUMS, 0, 5_007_000, "200", true, 1), line);
      log.format(new Completion(RequestType.GET_REVIEW, 0, 12_345_678_000L, "404", false, 6), line);
    } finally {
      log.close();
    }
    assertThat(line.toString())
        .isEqualTo("0,POST /albums,5.007,200,1\n0,GET /review,12345.678,404,6\n");
  }
}
