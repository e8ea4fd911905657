package org.albumstore.client.internal.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.client.ClientResult;
import org.albumstore.client.ClientRun;
import org.albumstore.client.testing.StandInAlbumStore;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in a real browser: headless Chromium (Debian's), driven by {@code playwright-core}
 * (npm) from {@code live/live-page-check.cjs}, against a real run of the client on the in-memory
 * stand-in server. The page's counters must rise while the load runs, its final table must be the
 * run's {@code summary.json}, its link to report.html must answer, and nothing may be logged as an
 * error in the browser's console (a script error, a failed request).
 *
 * <p>Needs {@code node}, {@code chromium} and playwright-core installed in {@code
 * $ALBUMSTORE_PLAYWRIGHT_DIR} (default {@code ~/.cache/albumstore/playwright}, where {@code
 * .ci/run} installs it): without them one skip line off CI, a failure on CI ({@link
 * ExternalTools}). Screenshots: {@code target/live-page/}.
 */
class LivePageBrowserIT {
  static final String PLAYWRIGHT_DIR_VARIABLE = "ALBUMSTORE_PLAYWRIGHT_DIR";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Long enough for a browser started on a busy machine to see several seconds of the load. */
  private static final int LOAD_SECONDS = 15;

  private static final Pattern LIVE = Pattern.compile("live page: (http://\\S+)");

  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private Path node;
  private Path chromium;
  private Path modules;
  private Path script;

  @BeforeEach
  void requireTheBrowser() throws Exception {
    ExternalTools tools = ExternalTools.system();
    String why = "LivePageBrowserIT drives the client's live page in headless Chromium";
    node = tools.require("node", why);
    chromium = tools.require("chromium", why);
    modules = playwrightDir().resolve("node_modules");
    tools.requireThat(
        Files.isDirectory(modules.resolve("playwright-core")),
        "playwright-core in " + modules + " (npm install --prefix DIR playwright-core)",
        why);
    script = copy("live/live-page-check.cjs");
  }

  @Test
  void thePageRisesDuringTheRunAndEndsWithTheSummary() throws Exception {
    Path shots = Files.createDirectories(Path.of("target", "live-page").toAbsolutePath());
    try (StandInAlbumStore server = new StandInAlbumStore(dir.resolve("tomcat"));
        Browser browser = new Browser(shots)) {
      CompletableFuture<ClientResult> run =
          CompletableFuture.supplyAsync(() -> client(server.url()).execute());
      JsonNode seen = browser.browse(awaitLiveUrl() + "/");
      ClientResult result = run.get(60, TimeUnit.SECONDS);
      assertThat(result.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
      check(seen, JSON.readTree(dir.resolve("out/summary.json").toFile()));
    }
  }

  /**
   * The console check can fail: a page like the live page's end, with one planted {@code
   * console.error}, is reported with that error.
   */
  @Test
  void aConsoleErrorOnThePageIsSeen() throws Exception {
    String page =
        "<!doctype html><html><head><link rel=\"icon\" href=\"data:,\"></head><body>"
            + "<div id=\"phase\">done</div><div id=\"requests\">1</div><div id=\"rate\">1</div>"
            + "<div id=\"inflight\">0</div><div id=\"verify\">0 / 0</div>"
            + "<table id=\"types\"><tbody></tbody></table>"
            + "<div id=\"summary\" data-run-id=\"planted\"><a id=\"report\" href=\"report.html\">r</a>"
            + "</div><script>console.error(\"planted error\");</script></body></html>";
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
    server.createContext(
        "/",
        exchange -> {
          byte[] body = page.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    try (Browser browser = new Browser(Files.createDirectories(dir.resolve("shots")))) {
      JsonNode seen = browser.browse("http://127.0.0.1:" + server.getAddress().getPort() + "/");
      assertThat(seen.path("errors").toString()).contains("planted error");
    } finally {
      server.stop(0);
    }
  }

  /**
   * The browser script, started before the run it watches: it launches Chromium, says "ready", and
   * only then is given the page's URL, so a slow start cannot eat the load it must see.
   */
  private final class Browser implements AutoCloseable {
    private final Process process;
    private final BufferedReader stdout;

    Browser(Path shots) throws Exception {
      ProcessBuilder pb =
          new ProcessBuilder(
                  node.toString(), script.toString(), chromium.toString(), shots.toString())
              .redirectError(ProcessBuilder.Redirect.INHERIT);
      pb.environment().put("NODE_PATH", modules.toString());
      process = pb.start();
      stdout =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      assertThat(stdout.readLine())
          .as("the browser script's first line (stderr above)")
          .isEqualTo("ready");
    }

    /** What the script saw of the page at {@code url}, to the run's end. */
    JsonNode browse(String url) throws Exception {
      try (Writer stdin =
          new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)) {
        stdin.write(url + "\n");
      }
      String seen = stdout.readLine();
      assertThat(process.waitFor(150, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as("the browser script (stderr above)").isZero();
      return JSON.readTree(seen);
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  private static void check(JsonNode seen, JsonNode summary) {
    assertThat(seen.path("errors")).as("the browser console's errors").isEmpty();
    List<Long> during = new ArrayList<>();
    seen.path("samples")
        .forEach(
            s -> {
              if ("load".equals(s.path("phase").asText())) {
                during.add(s.path("requests").asLong());
              }
            });
    assertThat(during).as("requests shown each second of the load").isSorted();
    assertThat(during.stream().distinct().count())
        .as("the requests shown rose during the load: %s", seen.path("samples"))
        .isGreaterThanOrEqualTo(3);
    assertThat(seen.path("runId").asText()).isEqualTo(summary.path("runId").asText());
    assertThat(seen.path("report").asText()).isEqualTo("report.html");
    assertThat(seen.path("reportStatus").asInt()).isEqualTo(200);
    assertThat(seen.path("inFlight").asLong()).isZero();
    long albums = summary.path("verification").path("albums").asLong();
    assertThat(seen.path("verify").asText()).isEqualTo(albums + " / " + albums);
    Map<String, JsonNode> rows = new HashMap<>();
    seen.path("rows").forEach(r -> rows.put(r.path("type").asText(), r));
    int types = 0;
    for (JsonNode r : summary.path("requests")) {
      if (r.path("count").asLong() == 0) {
        continue;
      }
      types++;
      JsonNode row = rows.get(r.path("type").asText());
      assertThat(row).as("the page's row of %s", r.path("type").asText()).isNotNull();
      assertThat(row.path("ok").asLong()).isEqualTo(r.path("ok").asLong()).isPositive();
      assertThat(row.path("failed").asLong()).isEqualTo(r.path("failed").asLong());
      assertThat(row.path("p99Ms").asDouble()).isCloseTo(r.path("p99Ms").asDouble(), within(5e-4));
    }
    assertThat(rows).hasSize(types);
  }

  private ClientRun client(String url) {
    return new ClientRun(
        Env.of(Map.of()),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        "--url",
        url,
        "--rmq-api",
        "none",
        "--amqp-uri",
        "none",
        "--consumer-metrics",
        "none",
        "--server-metrics",
        "none",
        "--out",
        dir.resolve("out").toString(),
        "--drain-timeout",
        "3",
        "--no-progress",
        "--threads",
        "8",
        "--duration",
        Integer.toString(LOAD_SECONDS),
        "--live-port",
        "0",
        "--live-linger",
        "10");
  }

  private String awaitLiveUrl() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = LIVE.matcher(err.toString(StandardCharsets.UTF_8));
      if (m.find()) {
        return m.group(1).replaceAll("/$", "");
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no live page announced: " + err.toString(StandardCharsets.UTF_8));
  }

  private static Path playwrightDir() {
    return Optional.ofNullable(System.getenv(PLAYWRIGHT_DIR_VARIABLE))
        .filter(s -> !s.isBlank())
        .map(Path::of)
        .orElse(Path.of(System.getProperty("user.home"), ".cache", "albumstore", "playwright"));
  }

  private Path copy(String resource) throws Exception {
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      Path file = dir.resolve(Path.of(resource).getFileName().toString());
      Files.copy(in, file);
      return file;
    }
  }
}
