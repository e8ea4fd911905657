package org.albumstore.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.albumstore.client.internal.check.Comparison;
import org.albumstore.client.internal.check.ThresholdResult;
import org.albumstore.client.internal.stats.IntervalLogs;
import org.albumstore.client.internal.stats.StepRow;
import org.albumstore.client.testing.StandInAlbumStore;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole run through {@link ClientMain#execute}, against the in-memory stand-in server with no
 * broker (so verification takes the "no queue figures: poll until the counts agree" path). The run
 * against the real server, consumer and broker is {@code ClientIT}.
 */
class ClientRunTest {
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

  private ClientResult run(String... extra) {
    return client(extra).execute();
  }

  private ClientRun client(String... extra) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "--url",
                server.url(),
                "--rmq-api",
                "none",
                "--amqp-uri",
                "none",
                "--consumer-metrics",
                "none",
                "--out",
                dir.resolve("out").toString(),
                "--drain-timeout",
                "3"));
    args.addAll(List.of(extra));
    return new ClientRun(
        Env.of(Map.of()),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args.toArray(String[]::new));
  }

  @Test
  void aCleanRunReportsEveryRequestVerifiesAndWritesItsFiles() throws Exception {
    ClientResult r =
        run(
            "--group-size",
            "3",
            "--groups",
            "2",
            "--delay",
            "0.3",
            "--iterations",
            "20",
            "--get-threads",
            "2");

    assertThat(r.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
    RunSummary s = r.summary();
    assertThat(s.stats("POST /albums").ok()).isEqualTo(120);
    assertThat(s.stats("POST /review/like").ok()).isEqualTo(240);
    assertThat(s.stats("POST /review/dislike").ok()).isEqualTo(120);
    assertThat(s.allWrites().ok()).isEqualTo(480);
    assertThat(s.allWrites().failed()).isZero();
    assertThat(s.throughput()).isPositive();
    assertThat(s.verification().status()).isEqualTo("ok");
    assertThat(s.verification().albums()).isEqualTo(120);
    assertThat(s.broker().source()).isEqualTo("n/a");
    assertThat(server.albums()).isEqualTo(120);

    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(report).contains("verified: 120 albums, 0 mismatches").contains("throughput: ");
    // The stand-in serves no metrics: the table is there, with the client's figures only.
    assertThat(s.tiers().clientCount()).isEqualTo(480);
    assertThat(s.tiers().consumerMetrics()).isEqualTo("none");
    assertThat(s.tiers().serverMetrics()).isEqualTo(server.url() + "/metrics");
    assertThat(s.tiers().notes()).anySatisfy(n -> assertThat(n).startsWith("server metrics n/a"));
    assertThat(report).contains("time spent per tier (writes, ms)");
    Path o = dir.resolve("out");
    assertThat(JsonSummary.read(o.resolve("summary.json"))).isEqualTo(s);
    // Every logical request is one CSV row; the preflight and verification reads are not.
    long rows = Files.lines(o.resolve("requests.csv")).count() - 1;
    long requests = s.requests().stream().mapToLong(t -> t.count()).sum();
    assertThat(rows).isEqualTo(requests);
    assertThat(Files.readAllLines(o.resolve("timeline.csv"))).hasSizeGreaterThan(1);
    assertThat(Files.size(o.resolve("chart.png"))).isPositive();
    assertThat(Files.readString(o.resolve("report.html"))).contains("data:image/png;base64,");
  }

  @Test
  void transientFailuresAreRetriedWithTheSameKeysAndTheRunStillSucceeds() {
    server.failFirstAttempts(1);
    ClientResult r = run("--threads", "2", "--iterations", "5", "--no-progress");
    assertThat(r.exitCode()).isZero();
    RunSummary s = r.summary();
    assertThat(s.allWrites().ok()).isEqualTo(40);
    assertThat(s.allWrites().retries()).isEqualTo(40);
    assertThat(s.retriedAttempts()).containsEntry("POST /albums: 503", 10L);
    assertThat(s.verification().mismatches()).isZero();
  }

  @Test
  void theClassicTransportRunsTheSameWorkloadRetriesAndVerification() {
    server.failFirstAttempts(1);
    ClientResult r =
        run("--threads", "2", "--iterations", "5", "--no-progress", "--transport", "classic");
    assertThat(r.exitCode()).isZero();
    RunSummary s = r.summary();
    assertThat(s.allWrites().ok()).isEqualTo(40);
    assertThat(s.allWrites().retries()).isEqualTo(40);
    assertThat(s.verification().mismatches()).isZero();
  }

  @Test
  void lostWritesAreFoundByVerificationAndFailTheRun() {
    server.loseEveryOtherDislike();
    ClientResult r = run("--threads", "2", "--iterations", "5", "--drain-timeout", "1");
    assertThat(r.exitCode()).isEqualTo(1);
    RunSummary s = r.summary();
    assertThat(s.allWrites().failed()).isZero();
    assertThat(s.verification().status()).isEqualTo("mismatches");
    assertThat(s.verification().mismatches()).isEqualTo(5);
    assertThat(s.verification().firstMismatches())
        .allSatisfy(m -> assertThat(m.problem()).isEqualTo("dislikes 0 (expected 1)"));
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("verified: 10 albums, 5 mismatches")
        .contains("dislikes 0 (expected 1)");
  }

  @Test
  void anUnreachableServerEndsTheRunAtOnce() throws Exception {
    int freePort;
    try (ServerSocket socket = new ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }
    ClientResult r =
        ClientMain.execute(
            Env.of(Map.of()),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "--url",
            "http://127.0.0.1:" + freePort + "/albumstore",
            "--rmq-api",
            "none",
            "--amqp-uri",
            "none",
            "--out",
            dir.resolve("out2").toString());
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("cannot reach http://127.0.0.1:" + freePort);
  }

  @Test
  void theOpenModelSendsAtTheGivenRate() {
    ClientResult r = run("--threads", "4", "--iterations", "10", "--rate", "400", "--no-verify");
    assertThat(r.exitCode()).isZero();
    RunSummary s = r.summary();
    assertThat(s.allWrites().ok()).isEqualTo(160);
    assertThat(s.settings().rate()).isEqualTo(400);
    assertThat(s.verification().status()).isEqualTo("skipped");
    // 160 writes due 2.5 ms apart: the last one is due at ~0.4 s, so the run cannot be faster.
    assertThat(s.wallSeconds()).isGreaterThanOrEqualTo(0.39);
  }

  @Test
  void aTimedRunLoopsUntilItsDurationIsUpAndThenStops() throws Exception {
    ClientResult r = run("--threads", "2", "--duration", "1.5", "--no-progress");
    assertThat(r.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
    RunSummary s = r.summary();
    // Writers finish the iteration they are in: a little over the duration, far less than 2x.
    assertThat(s.wallSeconds()).isBetween(1.5, 10.0);
    assertThat(s.stats("POST /albums").ok()).isGreaterThan(2);
    assertThat(s.settings().durationSeconds()).isEqualTo(1.5);
    assertThat(s.verification().albums()).isEqualTo(s.stats("POST /albums").ok());
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("iterations for 1.5 s");
    assertThat(Files.readString(dir.resolve("out").resolve("report.html")))
        .contains("iterations for 1.5 s")
        .doesNotContain(Integer.toString(Integer.MAX_VALUE));
  }

  @Test
  void anEndFileEndsATimedLoadEarlyAndTheRunIsStillAudited() throws Exception {
    Path end = dir.resolve("load.end");
    Thread signal =
        new Thread(
            () -> {
              try {
                Thread.sleep(1_000);
                Files.createFile(end);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    signal.start();
    ClientResult r =
        run("--threads", "2", "--duration", "600", "--end-file", end.toString(), "--no-progress");
    signal.join();
    assertThat(r.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
    RunSummary s = r.summary();
    // The file appears a second into the load: the writers end then, not after the 600 s the
    // duration allows, and what they wrote is audited as at the end of a duration.
    assertThat(s.wallSeconds()).isLessThan(300.0);
    assertThat(s.stats("POST /albums").ok()).isGreaterThan(2);
    assertThat(s.verification().status()).isEqualTo("ok");
    assertThat(s.verification().albums()).isEqualTo(s.stats("POST /albums").ok());
  }

  @Test
  void aCrossedThresholdExitsWith99AndTheTableShowsEachThreshold() {
    ClientResult r =
        run(
            "--threads",
            "2",
            "--iterations",
            "5",
            "--no-progress",
            "--max-error-rate",
            "0",
            "--min-throughput",
            "POST /albums=1000000");
    assertThat(r.exitCode()).isEqualTo(99);
    assertThat(r.summary().thresholds())
        .extracting(ThresholdResult::result)
        .containsExactly("pass", "FAIL");
    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(report)
        .containsPattern("--max-error-rate +error rate +all writes +0\\.000 +0\\.000 +pass")
        .containsPattern(
            "--min-throughput +throughput \\(req/s\\) +POST /albums +1000000\\.000 .* FAIL")
        .contains("thresholds: 1 of 2 failed")
        .contains("exit code: 99");
  }

  @Test
  void failedRequestsKeepExitCodeOneEvenWhenAThresholdIsCrossedToo() {
    server.failFirstAttempts(10);
    ClientResult r =
        run(
            "--threads",
            "1",
            "--iterations",
            "2",
            "--retries",
            "0",
            "--no-progress",
            "--max-error-rate",
            "0.1");
    assertThat(r.summary().thresholds().get(0).passed()).isFalse();
    assertThat(r.exitCode()).isEqualTo(1);
  }

  @Test
  void aBaselineRunIsPrintedBesideThisOneWithTheChange() throws Exception {
    ClientResult first = run("--threads", "2", "--iterations", "5", "--no-progress");
    assertThat(first.exitCode()).isZero();
    Path baselineDir = dir.resolve("baseline");
    Files.move(dir.resolve("out"), baselineDir);
    out.reset();
    ClientResult second =
        run(
            "--threads",
            "2",
            "--iterations",
            "5",
            "--no-progress",
            "--baseline",
            baselineDir.resolve("summary.json").toString());
    assertThat(second.exitCode()).isZero();
    Comparison c = second.summary().baseline();
    assertThat(c.baselineRunId()).isEqualTo(first.summary().runId());
    Comparison.Row albums =
        c.rows().stream()
            .filter(x -> x.row().equals("POST /albums") && x.figure().equals("failed"))
            .findFirst()
            .orElseThrow();
    assertThat(albums.baseline()).isZero();
    assertThat(albums.current()).isZero();
    assertThat(c.rows()).anySatisfy(x -> assertThat(x.row()).isEqualTo("all writes"));
    assertThat(c.rows()).noneSatisfy(x -> assertThat(x.row()).isEqualTo("GET /albums"));
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("compared with baseline run " + first.summary().runId())
        .containsPattern("all writes +req/s +[0-9.]+ +[0-9.]+ +[-+][0-9.]+%");
  }

  @Test
  void rateStepsPaceEachStepAndReportOneRowPerStep() throws Exception {
    ClientResult r =
        run(
            "--threads",
            "4",
            "--rate-steps",
            "40,120",
            "--step-duration",
            "1",
            "--no-verify",
            "--no-progress");
    assertThat(r.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
    RunSummary s = r.summary();
    assertThat(s.steps()).hasSize(2);
    assertThat(s.steps()).extracting(StepRow::targetRate).containsExactly(40.0, 120.0);
    // The schedule allows 40 + 120 writes in 2 s, and each writer ends its iteration after that
    // (at most 4 x 4 more): unpaced, 4 threads would send thousands. The lower bound leaves room
    // for a loaded machine falling behind the schedule.
    assertThat(s.allWrites().ok()).isBetween(80L, 176L);
    assertThat(s.steps().get(0).ok() + s.steps().get(1).ok()).isEqualTo(s.allWrites().ok());
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("open model in steps of 1 s at 40, 120 req/s")
        .contains("rate steps: writes per step");
    List<String> csv = Files.readAllLines(dir.resolve("out").resolve("steps.csv"));
    assertThat(csv.get(0))
        .isEqualTo("step,from_s,to_s,target_rate,ok,failed,rate,p50_ms,p99_ms,p999_ms");
    assertThat(csv).hasSize(3);
    assertThat(csv.get(2)).startsWith("2,1.000,2.000,120.000," + s.steps().get(1).ok() + ",");
  }

  @Test
  void aRampReportsARowPerStepWithTheRampsRateAtItsMiddle() {
    ClientResult r =
        run(
            "--threads",
            "4",
            "--rate-ramp",
            "20,100",
            "--duration",
            "2",
            "--step-duration",
            "1",
            "--no-verify",
            "--no-progress");
    assertThat(r.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
    // 20 to 100 per second over 2 s: 120 writes due, then the writers finish their iteration (at
    // most 4 x 4 more); the lower bound leaves room for a loaded machine.
    assertThat(r.summary().allWrites().ok()).isBetween(60L, 136L);
    assertThat(r.summary().steps()).extracting(StepRow::targetRate).containsExactly(40.0, 80.0);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("open model ramped from 20 to 100 req/s over 2 s");
  }

  @Test
  void theRunIdNamesTheRunAndEveryRequestTypeHasAnIntervalLog() throws Exception {
    ClientResult r =
        run("--threads", "2", "--iterations", "5", "--no-progress", "--run-id", "ci-42");
    assertThat(r.summary().runId()).isEqualTo("ci-42");
    Path o = dir.resolve("out");
    long likes = 0;
    HistogramLogReader reader =
        new HistogramLogReader(IntervalLogs.file(o, RequestType.POST_LIKE).toFile());
    EncodableHistogram h;
    while ((h = reader.nextIntervalHistogram()) != null) {
      likes += ((Histogram) h).getTotalCount();
    }
    reader.close();
    assertThat(likes).isEqualTo(r.summary().stats("POST /review/like").ok()).isEqualTo(20);
    assertThat(o.resolve("spectrum.png")).exists();
    assertThat(r.summary().outputs().spectrumPng()).isEqualTo(o.resolve("spectrum.png").toString());
    assertThat(Files.readString(o.resolve("report.html")))
        .contains("latency by percentile (percentile spectrum)");
  }

  @Test
  void aRunStoppedBeforeItStartsNeverSendsARequest() throws Exception {
    ClientRun client = client("--threads", "1", "--iterations", "5", "--no-progress");
    client.stop(java.time.Duration.ofSeconds(1));

    assertThat(client.execute().exitCode()).isEqualTo(130);
    assertThat(server.albums()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("stopped before the run started");
  }

  @Test
  void aStoppedRunEndsEarlyAndStillWritesItsReport() throws Exception {
    ClientResult[] result = new ClientResult[1];
    ClientRun client = client("--threads", "2", "--iterations", "1000000", "--no-progress");
    Thread run = new Thread(() -> result[0] = client.execute());
    run.start();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (server.albums() < 5 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    client.stop(java.time.Duration.ofSeconds(30));
    run.join(30_000);
    assertThat(run.isAlive()).isFalse();
    assertThat(result[0].exitCode()).isEqualTo(130);
    assertThat(result[0].summary().verification().note()).isEqualTo("run stopped early");
    assertThat(result[0].summary().stats("POST /albums").ok()).isBetween(5L, 999_999L);
    assertThat(dir.resolve("out").resolve("summary.json")).exists();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("exit code: 130");
  }

  @Test
  void warmUpWritesAreVerifiedButNotMeasured() {
    ClientResult r = run("--threads", "2", "--iterations", "3", "--warmup-iterations", "2");
    assertThat(r.exitCode()).isZero();
    assertThat(r.summary().stats("POST /albums").ok()).isEqualTo(6);
    assertThat(r.summary().verification().albums()).isEqualTo(10);
    assertThat(server.albums()).isEqualTo(10);
  }
}
