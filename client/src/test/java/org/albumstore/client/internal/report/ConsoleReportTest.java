package org.albumstore.client.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.albumstore.client.RunSummary;
import org.junit.jupiter.api.Test;

class ConsoleReportTest {
  @Test
  void printsTheTablesAndTheStableSummaryLines() {
    String text = ConsoleReport.render(SampleRuns.summary(0));
    List<String> lines = text.lines().toList();
    assertThat(lines)
        .anyMatch(l -> l.startsWith("request type") && l.contains("p99.9") && l.endsWith("max"))
        .anyMatch(l -> l.startsWith("POST /albums ") && l.contains(" 1000 "))
        .anyMatch(l -> l.startsWith("all writes ") && l.contains(" 3999 "))
        .anyMatch(l -> l.startsWith("GET /review "))
        .contains("wall time: 2.000 s")
        .contains("throughput: 3000.0 req/s (successful writes)")
        .contains("failures: POST /review/dislike: 503 x 1")
        .contains("retried attempts: none")
        .contains(
            "queue albumstore.writes (management-api): depth max 120, at end of load 3, drain drained after 1.5 s")
        .contains("verified: 1000 albums, 0 mismatches")
        .anyMatch(l -> l.startsWith("time spent per tier (writes, ms)") && l.endsWith("count"))
        .anyMatch(l -> l.startsWith("  broker: publish -> confirm ") && l.endsWith(" 3999"))
        .contains(
            "largest share of a request: broker: publish -> confirm (40.0% of the client mean)")
        .contains("exit code: 0");
    // The writes come first, then their total, then the reads.
    assertThat(indexOfPrefix(lines, "POST /review/dislike"))
        .isLessThan(indexOfPrefix(lines, "all writes"));
    assertThat(indexOfPrefix(lines, "all writes")).isLessThan(indexOfPrefix(lines, "GET /review"));
  }

  @Test
  void listsMismatchesAndSkippedVerification() {
    assertThat(ConsoleReport.render(SampleRuns.summary(2)))
        .contains("verified: 1000 albums, 2 mismatches")
        .contains("  mismatch album-0: likes 1 (expected 2)");
    RunSummary skipped =
        new RunSummary(
            "t",
            "v",
            "r",
            "s",
            "f",
            SampleRuns.summary(0).settings(),
            1,
            1,
            SampleRuns.summary(0).requests(),
            SampleRuns.summary(0).allWrites(),
            java.util.Map.of(),
            java.util.Map.of(),
            new RunSummary.Broker(
                "n/a", "q", null, null, "not-awaited", null, null, null, null, null),
            RunSummary.Verification.skipped("--no-verify"),
            null,
            0,
            0,
            List.of(),
            List.of(),
            null,
            null,
            0);
    assertThat(ConsoleReport.render(skipped))
        .contains("verified: skipped (--no-verify)")
        .contains("queue q (n/a): depth max n/a, at end of load n/a, drain not-awaited")
        .contains("broker rates: publish mean n/a msg/s (peak n/a)");
  }

  private static int indexOfPrefix(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(prefix)) {
        return i;
      }
    }
    return -1;
  }
}
