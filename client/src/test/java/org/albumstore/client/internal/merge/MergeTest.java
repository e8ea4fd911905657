package org.albumstore.client.internal.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.albumstore.client.ClientMain;
import org.albumstore.client.ClientResult;
import org.albumstore.client.JsonSummary;
import org.albumstore.client.MergedSummary;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.stats.IntervalLogs;
import org.albumstore.client.testing.StandInAlbumStore;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code merge} of real client runs against the in-memory stand-in (one after the other here; the
 * two clients at once against the real server are {@code MergeIT} in {@code local/}).
 */
class MergeTest {
  @TempDir Path dir;
  private StandInAlbumStore server;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws Exception {
    server = new StandInAlbumStore(dir.resolve("tomcat"));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private ClientResult client(String runId, String out, int threads, int iterations) {
    ClientResult r =
        ClientMain.execute(
            Env.of(Map.of()),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "--url",
            server.url(),
            "--rmq-api",
            "none",
            "--amqp-uri",
            "none",
            "--consumer-metrics",
            "none",
            "--no-verify",
            "--no-progress",
            "--run-id",
            runId,
            "--threads",
            Integer.toString(threads),
            "--iterations",
            Integer.toString(iterations),
            "--out",
            dir.resolve(out).toString());
    assertThat(r.exitCode()).isZero();
    return r;
  }

  private int merge(String... args) {
    List<String> all = new ArrayList<>(List.of("merge"));
    all.addAll(List.of(args));
    return ClientMain.execute(
            Env.of(Map.of()),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            all.toArray(String[]::new))
        .exitCode();
  }

  @Test
  void twoClientsOfOneRunAreSummedMergedFromTheirHistogramsAndVerifiedAsOne() throws Exception {
    ClientResult a = client("t-1", "a", 2, 5);
    ClientResult b = client("t-1", "b", 3, 4);

    int code =
        merge(
            dir.resolve("a").toString(),
            dir.resolve("b").toString(),
            "--drain-timeout",
            "3",
            "--out",
            dir.resolve("merged").toString());

    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(report + err).isZero();
    MergedSummary m = JsonSummary.read(dir.resolve("merged/summary.json"), MergedSummary.class);
    assertThat(m.runId()).isEqualTo("t-1");
    assertThat(m.allWrites().ok()).isEqualTo(4L * (10 + 12));
    assertThat(m.requests().get(RequestType.POST_ALBUMS.ordinal()).ok()).isEqualTo(22);
    assertThat(m.throughput())
        .isCloseTo(
            a.summary().throughput() + b.summary().throughput(),
            org.assertj.core.data.Offset.offset(1e-6));
    // Max of the merged histograms is the larger of the two runs' maxima: nothing averaged.
    assertThat(m.allWrites().maxMs())
        .isEqualTo(Math.max(a.summary().allWrites().maxMs(), b.summary().allWrites().maxMs()));
    assertThat(m.verification().status()).isEqualTo("ok");
    assertThat(m.verification().albums()).isEqualTo(22);
    assertThat(report)
        .contains("albumstore-client merge of run t-1: 2 runs")
        .contains("verified: 22 albums, 0 mismatches")
        .contains("exit code: 0");
    assertThat(dir.resolve("merged/spectrum.png")).exists();
  }

  @Test
  void runsOfDifferentRunIdsAreRefusedAsAUsageError() {
    client("t-1", "a", 1, 1);
    client("t-2", "b", 1, 1);
    assertThat(merge(dir.resolve("a").toString(), dir.resolve("b").toString(), "--no-verify"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--run-id").contains("t-2");
  }

  @Test
  void lostWritesOfEitherClientFailTheMergedVerification() {
    server.loseEveryOtherDislike();
    client("t-3", "a", 1, 2);
    client("t-3", "b", 1, 2);
    assertThat(
            merge(dir.resolve("a").toString(), dir.resolve("b").toString(), "--drain-timeout", "1"))
        .isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("verified: 4 albums, 2 mismatches");
  }

  @Test
  void anIntervalLogThatDisagreesWithItsSummaryIsRefused() throws Exception {
    client("t-4", "a", 1, 2);
    Files.delete(IntervalLogs.file(dir.resolve("a"), RequestType.POST_LIKE));
    assertThat(merge(dir.resolve("a").toString(), "--no-verify")).isEqualTo(3);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("post-review-like.hlog holds 0 latencies");
  }

  @Test
  void mergeHelpStatesEveryDefaultAndTheExitCodes() {
    assertThat(merge("--help")).isZero();
    String help = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
    assertThat(help)
        .contains("Default: the first run's URL.")
        .contains("Default: 120.")
        .contains("2 usage error (also: runs of different run IDs)");
    assertThat(merge()).isEqualTo(2);
  }
}
