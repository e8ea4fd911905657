package org.albumstore.client.internal.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.client.ClientResult;
import org.albumstore.client.ClientRun;
import org.albumstore.client.testing.StandInAlbumStore;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole run with {@code --metrics-port} and {@code --live-port} against the in-memory stand-in:
 * the metrics and the page's JSON move while it runs, and at the end the page's figures are the
 * report's ({@code summary.json}), and it links report.html. The browser's view of the same page is
 * {@code LivePageBrowserTest}.
 */
class WatchedRunTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Pattern URL = Pattern.compile("(metrics|live page): (http://\\S+)");

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

  @Test
  void metricsAndThePageMoveDuringTheRunAndEndAsTheReport() throws Exception {
    CompletableFuture<ClientResult> run =
        CompletableFuture.supplyAsync(
            () ->
                client(
                        "--threads",
                        "4",
                        "--rate",
                        "200",
                        "--duration",
                        "4",
                        "--metrics-port",
                        "0",
                        "--live-port",
                        "0",
                        "--live-linger",
                        "4")
                    .execute());
    Map<String, String> urls = awaitUrls();
    String metrics = urls.get("metrics");
    String live = urls.get("live page");

    long first = awaitFinished(metrics, 1);
    long later = awaitFinished(metrics, first + 1);
    assertThat(later).isGreaterThan(first);
    String text = get(metrics);
    assertThat(text)
        .contains("albumstore_client_run_phase{phase=\"load\"} 1.0")
        .contains("albumstore_client_requests_seconds_bucket{type=\"post_albums\"")
        .contains("albumstore_client_in_flight_requests")
        .contains("albumstore_client_queue_depth_messages");
    assertThat(get(live + "/")).contains("uPlot.iife.min.js");
    assertThat(get(live + "/uPlot.iife.min.js")).contains("uPlot");

    JsonNode end = awaitDone(live);
    ClientResult result = run.get();
    assertThat(result.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
    JsonNode summary = JSON.readTree(dir.resolve("out/summary.json").toFile());
    assertThat(end.path("summary").path("runId").asText())
        .isEqualTo(summary.path("runId").asText());
    assertThat(end.path("report").asText()).isEqualTo("report.html");
    Map<String, JsonNode> byType = new HashMap<>();
    end.path("types").forEach(t -> byType.put(t.path("type").asText(), t));
    int types = 0;
    for (JsonNode r : summary.path("requests")) {
      if (r.path("count").asLong() == 0) {
        continue; // a type this workload does not send: not on the page
      }
      types++;
      JsonNode t = byType.get(r.path("type").asText());
      assertThat(t.path("ok").asLong()).isEqualTo(r.path("ok").asLong()).isPositive();
      assertThat(t.path("failed").asLong()).isEqualTo(r.path("failed").asLong());
      assertThat(t.path("p99Ms").asDouble()).isEqualTo(r.path("p99Ms").asDouble());
    }
    assertThat(byType).hasSize(types);
    assertThat(end.path("inFlight").asLong()).isZero();
    assertThat(end.path("verify").path("done").asLong())
        .isEqualTo(summary.path("verification").path("albums").asLong())
        .isPositive();
  }

  @Test
  void withoutTheFlagsNothingListens() throws Exception {
    ClientResult r = client("--threads", "2", "--iterations", "5").execute();
    assertThat(r.exitCode()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("live page:", "metrics:");
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
                "3",
                "--no-progress"));
    args.addAll(List.of(extra));
    return new ClientRun(
        Env.of(Map.of()),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args.toArray(String[]::new));
  }

  private Map<String, String> awaitUrls() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    Map<String, String> urls = new HashMap<>();
    while (urls.size() < 2 && System.nanoTime() < deadline) {
      Matcher m = URL.matcher(err.toString(StandardCharsets.UTF_8));
      while (m.find()) {
        urls.put(
            m.group(1),
            m.group(2).replaceAll("/(metrics)?$", m.group(1).equals("metrics") ? "/metrics" : ""));
      }
      Thread.sleep(50);
    }
    assertThat(urls).as(err.toString(StandardCharsets.UTF_8)).hasSize(2);
    return urls;
  }

  /** Polls until the POST /albums that finished ok reach {@code atLeast}; returns their count. */
  private static long awaitFinished(String metrics, long atLeast) throws Exception {
    Pattern p =
        Pattern.compile(
            "albumstore_client_requests_finished_total\\{outcome=\"ok\",type=\"post_albums\"\\}"
                + " (\\S+)");
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      Matcher m = p.matcher(get(metrics));
      long n = m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
      if (n >= atLeast || System.nanoTime() > deadline) {
        assertThat(n).isGreaterThanOrEqualTo(atLeast);
        return n;
      }
      Thread.sleep(200);
    }
  }

  private static JsonNode awaitDone(String live) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    JsonNode state = JSON.readTree(get(live + WatchServer.STATE));
    while (!"done".equals(state.path("phase").asText()) && System.nanoTime() < deadline) {
      Thread.sleep(200);
      state = JSON.readTree(get(live + WatchServer.STATE));
    }
    assertThat(state.path("phase").asText()).isEqualTo("done");
    return state;
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url).isEqualTo(200);
    return r.body();
  }
}
