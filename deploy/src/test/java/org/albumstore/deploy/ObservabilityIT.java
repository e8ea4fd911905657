package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.client.ClientMain;
import org.albumstore.client.ClientResult;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.LogFormat;
import org.albumstore.consumer.MetricsSettings;
import org.albumstore.embedded.cluster.RabbitNode;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator reads, proven on a live stack: the Grafana dashboard and the recording rules of
 * {@code observability/}, and the JSON logs.
 *
 * <p>The dashboard and the recording rules against a real Prometheus scraping a live stack: every
 * expression of every panel, and every recording rule, must return data with a finite value. A
 * panel with no data fails the build, so a metric renamed in the code (or a typo in the dashboard)
 * cannot go unnoticed.
 *
 * <p>The stack is the operator's: the server's and the consumer's jars as processes of their own,
 * on a RabbitMQ node of this test's own with the {@code rabbitmq_prometheus} plugin (own name,
 * ports and files; never the machine's shared broker), PostgreSQL from {@link TestServices}. Then
 * Prometheus (Debian's package) with the project's {@code prometheus.yml} and rules, changed only
 * in its intervals (1 s, so that a short load gives enough samples) and given the test's ports as
 * its targets; then a short load of the client; then the queries through Prometheus's HTTP API.
 * Everything runs on loopback, on free ports, and is stopped by its PID at the end. Needs {@code
 * prometheus} and an installed RabbitMQ: without them it skips with one line off CI and fails on CI
 * ({@link ExternalTools}).
 */
class ObservabilityIT {
  private static final Logger log = LoggerFactory.getLogger(ObservabilityIT.class);

  static final Path DASHBOARD = PrometheusRulesIT.OBSERVABILITY.resolve("grafana/albumstore.json");
  private static final Path WORK =
      Path.of(System.getProperty("albumstore.it.workDir", "target")).toAbsolutePath();

  /**
   * What Grafana puts for {@code $__rate_interval}: two minutes cover the whole load, its drain and
   * its verification, however slow the machine.
   */
  private static final String RATE_INTERVAL = "2m";

  /**
   * The load's length: many scrape intervals (1 s), so that every counter the load moves is seen
   * moving. A load bounded by iterations alone ends between two scrapes on a quiet machine, and a
   * rate over a counter scraped only after it stopped is zero (a CI run's 20 queries of NaN).
   */
  private static final int LOAD_SECONDS = 10;

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration DATA_TIMEOUT = Duration.ofSeconds(45);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Heap small, young generation smaller: the short load then collects garbage at least once, as
   * any real run does, so that the GC panel has a pause to show.
   */
  private static final List<String> JVM = List.of("-Xmx128m", "-Xmn8m");

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static RabbitNode node;
  private static ServiceProcess server;
  private static ServiceProcess consumer;
  private static ServiceProcess prometheus;
  private static String serverUrl;
  private static String consumerMetrics;
  private static int clientMetricsPort;
  private static String prometheusUrl;
  private static String amqpUri;
  private static String queue;
  private static boolean loaded;

  @BeforeAll
  static void startStackAndPrometheus() throws Exception {
    Map<String, String> env = Scripts.cleanEnvironment();
    ExternalTools tools = ExternalTools.of(env);
    Path prometheusBinary =
        tools.require("prometheus", "ObservabilityIT evaluates the dashboard on a Prometheus");
    tools.requireThat(
        RabbitNode.installation().isPresent(),
        "an installed RabbitMQ (rabbitmq-server and rabbitmqctl)",
        "ObservabilityIT scrapes the rabbitmq_prometheus plugin of a RabbitMQ node of its own");
    String id = UUID.randomUUID().toString().substring(0, 8);
    Path dir = Files.createDirectories(WORK.resolve("observability-" + id));
    queue = "albumstore.obs-" + id;

    int brokerMetricsPort = startBroker(id, dir);
    Map<String, String> targets = startServices(env, dir);
    targets.put("rabbitmq", "127.0.0.1:" + brokerMetricsPort);
    clientMetricsPort = RabbitNode.freePort();
    targets.put("albumstore-client", "127.0.0.1:" + clientMetricsPort);
    startPrometheus(
        prometheusBinary, env, PrometheusConfig.write(dir.resolve("prometheus"), targets), dir);
    // The client's endpoint is up only while its load runs (loadOnce): not awaited here.
    awaitTargetsUp(targets.size() - 1);
    log.info("stack up: {}, {}, {}, node {}", server, consumer, prometheus, node.nodeName());
  }

  /** The node, with its Prometheus plugin; returns the plugin's port. */
  private static int startBroker(String id, Path dir) throws Exception {
    int amqpPort = RabbitNode.freePort();
    int metricsPort = RabbitNode.freePort();
    node =
        RabbitNode.builder("albumstore-obs-" + id, dir.resolve("rabbit"))
            .plugins("rabbitmq_prometheus")
            .config(
                "listeners.tcp.1 = 127.0.0.1:" + amqpPort,
                "prometheus.tcp.ip = 127.0.0.1",
                "prometheus.tcp.port = " + metricsPort,
                "collect_statistics_interval = 1000")
            .start();
    amqpUri = "amqp://guest:guest@127.0.0.1:" + amqpPort + "/%2F";
    return metricsPort;
  }

  /** The server's and consumer's jars, logging JSON; returns their scrape targets by job. */
  private static Map<String, String> startServices(Map<String, String> env, Path dir)
      throws Exception {
    Map<String, String> services = new LinkedHashMap<>(env);
    services.putAll(stackSettings(TestServices.database()));
    services.put(LogFormat.SETTING.variable(), LogFormat.JSON.value());
    int httpPort = RabbitNode.freePort();
    services.put(CommonSettings.HTTP_PORT.variable(), Integer.toString(httpPort));
    server =
        ServiceProcess.startJar(
            "server", jar("albumstore.it.serverJar"), JVM, services, dir.resolve("server.log"));
    int metricsPort = RabbitNode.freePort();
    services.put(MetricsSettings.PORT.variable(), Integer.toString(metricsPort));
    consumer =
        ServiceProcess.startJar(
            "consumer",
            jar("albumstore.it.consumerJar"),
            JVM,
            services,
            dir.resolve("consumer.log"));
    serverUrl = "http://127.0.0.1:" + httpPort + "/albumstore";
    consumerMetrics = "http://127.0.0.1:" + metricsPort + "/metrics";
    server.awaitOk(serverUrl + "/health", START_TIMEOUT);
    consumer.awaitOk("http://127.0.0.1:" + metricsPort + "/health", START_TIMEOUT);
    Map<String, String> targets = new LinkedHashMap<>();
    targets.put("albumstore-server", "127.0.0.1:" + httpPort);
    targets.put("albumstore-consumer", "127.0.0.1:" + metricsPort);
    return targets;
  }

  private static void startPrometheus(Path binary, Map<String, String> env, Path config, Path dir)
      throws Exception {
    int port = RabbitNode.freePort();
    prometheusUrl = "http://127.0.0.1:" + port;
    prometheus =
        ServiceProcess.start(
            "prometheus",
            List.of(
                binary.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("prometheus/data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn"),
            env,
            dir.resolve("prometheus.log"));
    prometheus.awaitOk(prometheusUrl + "/-/ready", START_TIMEOUT);
  }

  /**
   * Waits until Prometheus has scraped every target once: a load that ran before the first scrape
   * would leave counters whose first sample is their last, and a rate of zero.
   */
  private static void awaitTargetsUp(int targets) throws Exception {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    JsonNode up = query("up == 1").path("data").path("result");
    while (up.size() < targets) {
      assertThat(System.nanoTime())
          .as("Prometheus scraped all %d targets; up == 1 gives %s", targets, up)
          .isLessThan(deadline);
      Thread.sleep(500);
      up = query("up == 1").path("data").path("result");
    }
  }

  @AfterAll
  static void stopEverything() throws Exception {
    for (ServiceProcess p : new ServiceProcess[] {prometheus, consumer, server}) {
      if (p != null) {
        p.close();
      }
    }
    if (node != null) {
      node.close();
    }
  }

  @Test
  void everyDashboardExpressionAndRecordingRuleReturnsData() throws Exception {
    loadOnce();
    List<String> queries = new ArrayList<>(dashboardExpressions());
    queries.addAll(recordingRules());
    assertThat(queries).hasSizeGreaterThan(50);

    Map<String, String> empty = awaitData(queries);

    assertThat(empty).as("queries with no data (%d of %d)", empty.size(), queries.size()).isEmpty();
    log.info("{} dashboard queries and recording rules, each with data", queries.size());
    writeAnswers(queries);
  }

  /**
   * The check can fail: the dashboard's first query with its metric misspelled (as a rename in the
   * code would leave it) has no data, and says so, while the same query spelled right has.
   */
  @Test
  void aMisspelledMetricIsAQueryWithNoData() throws Exception {
    String first = dashboardExpressions().get(0);
    assertThat(first).contains("http_server_requests_seconds_count");
    loadOnce();
    assertThat(awaitData(List.of(first))).isEmpty();

    String misspelled = first.replace("requests_seconds", "request_seconds");
    assertThat(whyNoData(misspelled)).isEqualTo("no series");
  }

  @Test
  void everyLineTheServerAndTheConsumerLogIsAJsonObject() throws Exception {
    loadOnce();
    List<JsonNode> serverLines = jsonLines(server);
    List<JsonNode> consumerLines = jsonLines(consumer);

    assertThat(serverLines)
        .as("Tomcat's own lines (java.util.logging) are JSON too")
        .anyMatch(l -> l.path("logger_name").asText().startsWith("org.apache.catalina"));
    assertThat(serverLines)
        .anyMatch(l -> l.path("message").asText().startsWith("Server components started"));
    assertThat(consumerLines)
        .anyMatch(l -> l.path("message").asText().startsWith("metrics on http://127.0.0.1:"));
  }

  /**
   * Every complete line of {@code service}'s output, parsed; fails on the first that is not a JSON
   * object with a time, a level, a logger, a message, and this stack's queue and a node.
   */
  private static List<JsonNode> jsonLines(ServiceProcess service) throws IOException {
    String text = Files.readString(service.log());
    List<String> lines = text.substring(0, text.lastIndexOf('\n') + 1).lines().toList();
    assertThat(lines).as("%s's log", service).hasSizeGreaterThan(3);
    List<JsonNode> parsed = new ArrayList<>();
    for (String line : lines) {
      JsonNode json;
      try {
        json = JSON.readTree(line);
      } catch (IOException e) {
        throw new AssertionError(service + " logged a line that is not JSON: " + line, e);
      }
      assertThat(json.isObject()).as(line).isTrue();
      for (String field : List.of("@timestamp", "level", "logger_name", "message", "node")) {
        assertThat(json.path(field).asText()).as("%s in %s", field, line).isNotBlank();
      }
      assertThat(json.path("queue").asText()).as(line).isEqualTo(queue);
      parsed.add(json);
    }
    return parsed;
  }

  /**
   * A load of {@link #LOAD_SECONDS} at a fixed rate, its verification included, through the
   * server's own port, serving its own metrics to Prometheus while it runs ({@code --metrics-port},
   * job {@code albumstore-client}); once for the class (every test looks at what it left).
   */
  private static synchronized void loadOnce() throws Exception {
    if (loaded) {
      return;
    }
    loaded = true;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ClientResult r =
        ClientMain.execute(
            Env.of(Map.of()),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err,
            "--threads",
            "16",
            "--rate",
            "100",
            "--duration",
            Integer.toString(LOAD_SECONDS),
            "--iterations",
            "200",
            "--url",
            serverUrl,
            "--queue",
            queue,
            "--amqp-uri",
            amqpUri,
            "--rmq-api",
            "none",
            "--consumer-metrics",
            consumerMetrics,
            "--drain-timeout",
            "60",
            "--no-progress",
            "--metrics-port",
            Integer.toString(clientMetricsPort),
            "--out",
            WORK.resolve("client-runs/observability").toString());
    assertThat(r.exitCode()).as(out.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(r.summary().verification().mismatches()).isZero();
    assertThat(r.summary().wallSeconds())
        .as("the load spans several scrapes")
        .isGreaterThan(LOAD_SECONDS / 2.0);
  }

  /**
   * Queries each until it has data, for at most {@link #DATA_TIMEOUT} in all (the last scrapes and
   * rule evaluations after the load); returns those still without, with what they returned.
   */
  private static Map<String, String> awaitData(List<String> queries) throws Exception {
    Map<String, String> empty = new LinkedHashMap<>();
    queries.forEach(q -> empty.put(q, "not queried"));
    long deadline = System.nanoTime() + DATA_TIMEOUT.toNanos();
    while (true) {
      for (String q : List.copyOf(empty.keySet())) {
        String missing = whyNoData(q);
        if (missing == null) {
          empty.remove(q);
        } else {
          empty.put(q, missing);
        }
      }
      if (empty.isEmpty() || System.nanoTime() > deadline) {
        return empty;
      }
      Thread.sleep(2000);
    }
  }

  /** Null when {@code query} returns at least one series with a finite value, else why not. */
  private static String whyNoData(String query) throws Exception {
    JsonNode body = query(query);
    if (!"success".equals(body.path("status").asText())) {
      return "error: " + body.path("error").asText(body.toString());
    }
    JsonNode result = body.path("data").path("result");
    for (JsonNode series : result) {
      String value = series.path("value").path(1).asText();
      try {
        if (Double.isFinite(Double.parseDouble(value))) {
          return null;
        }
      } catch (NumberFormatException e) {
        // not a number: keep looking
      }
    }
    return result.isEmpty() ? "no series" : "no finite value: " + result;
  }

  /** Prometheus's answer to an instant query at this moment. */
  private static JsonNode query(String query) throws Exception {
    String url =
        prometheusUrl + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(r.body());
  }

  /**
   * Each query with what it returned, one series a line, for the observability README's example
   * outputs: {@code target/it-logs/observability-queries.txt}.
   */
  private static void writeAnswers(List<String> queries) throws Exception {
    List<String> lines = new ArrayList<>();
    for (String q : queries) {
      lines.add(q);
      for (JsonNode series : query(q).path("data").path("result")) {
        lines.add("    " + series.path("metric") + " " + series.path("value").path(1).asText());
      }
    }
    Path file = WORK.resolve("it-logs/observability-queries.txt");
    Files.createDirectories(file.getParent());
    Files.write(file, lines);
  }

  /** Every {@code expr} of every panel's targets, with Grafana's interval put in. */
  static List<String> dashboardExpressions() throws IOException {
    List<String> exprs = new ArrayList<>();
    for (JsonNode panel : JSON.readTree(DASHBOARD.toFile()).path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        String expr = target.path("expr").asText();
        assertThat(expr).as("a target of panel %s", panel.path("title")).isNotBlank();
        exprs.add(expr.replace("$__rate_interval", RATE_INTERVAL));
      }
    }
    assertThat(exprs).as("template variables left in a query").noneMatch(e -> e.contains("$"));
    return exprs;
  }

  /** The name of every recording rule: its series, as Prometheus evaluated it. */
  private static List<String> recordingRules() throws IOException {
    return Files.readString(PrometheusRulesIT.RULES)
        .lines()
        .filter(l -> l.matches("\\s+- record: .+"))
        .map(l -> l.substring(l.indexOf(':') + 1).strip())
        .toList();
  }

  private static Map<String, String> stackSettings(DatabaseSettings db) {
    return Map.of(
        CommonSettings.AMQP_URI.variable(), amqpUri,
        CommonSettings.QUEUE.variable(), queue,
        CommonSettings.JDBC_URL.variable(), db.jdbcUrl(),
        CommonSettings.DB_USER.variable(), db.user(),
        CommonSettings.DB_PASSWORD.variable(), db.password());
  }

  private static Path jar(String property) {
    Path jar = Path.of(System.getProperty(property, "missing " + property));
    assertThat(jar).as("built by the reactor before this test").isRegularFile();
    return jar;
  }
}
