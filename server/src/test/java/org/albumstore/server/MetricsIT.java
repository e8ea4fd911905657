package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.Scrapes;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics} on the real server, broker and database: the names the load client and
 * dashboards rely on are there, and the counters move with real requests, under the right endpoint
 * and status.
 */
class MetricsIT {
  private static final String REQUESTS = "http_server_requests_seconds_count";
  private static final String STAGE = "albumstore_write_stage_seconds_count";
  private static final String VOTE = "/review/{likeornot}/{albumID}";
  private static final String[] STAGES = {
    "arrival", "validate", "channel_wait", "confirm", "respond", "complete"
  };
  private static final byte[] IMAGE = "\u0089PNG metrics".getBytes(StandardCharsets.ISO_8859_1);

  private AmqpSettings amqp;
  private AlbumStoreServer server;
  private Api api;

  @BeforeEach
  void start() {
    amqp = TestServices.amqp("server.metrics");
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    api = new Api(server.baseUrl());
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    TestServices.deleteTopology(amqp);
  }

  @Test
  void metricsAreServedInThePrometheusTextFormatWithTheDocumentedNames() throws Exception {
    Api.Reply r = api.get("/metrics");

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("Content-Type")).startsWith("text/plain").contains("version=0.0.4");
    String text = r.body();
    for (String name :
        new String[] {
          "albumstore_write_stage_seconds_bucket",
          "albumstore_write_stage_seconds_sum",
          "albumstore_publish_confirm_seconds_count",
          "albumstore_publish_bundle_writes_count",
          "albumstore_publish_channels",
          "albumstore_publish_channels_in_use",
          "albumstore_publish_waiters",
          "hikaricp_connections_active",
          "hikaricp_connections_pending",
          "hikaricp_connections_acquire_seconds_count",
          "rabbitmq_connections",
          "rabbitmq_channels",
          "rabbitmq_published_total",
          "rabbitmq_acknowledged_published_total",
          "rabbitmq_not_acknowledged_published_total",
          "tomcat_threads_busy_threads",
          "tomcat_threads_current_threads",
          "tomcat_threads_config_max_threads",
          "tomcat_connections_current_connections",
          "tomcat_global_request_seconds_count",
          "tomcat_global_sent_bytes_total",
          "tomcat_global_received_bytes_total",
          "tomcat_global_error_total",
          "jvm_memory_used_bytes",
          "jvm_threads_live_threads",
          "process_cpu_usage",
          "process_uptime_seconds"
        }) {
      assertThat(Scrapes.has(text, name)).as(name).isTrue();
    }
    for (String stage : STAGES) {
      assertThat(Scrapes.sum(text, STAGE, Map.of("stage", stage))).as(stage).isZero();
    }
    assertThat(Scrapes.sum(text, "albumstore_publish_channels", Map.of()))
        .isEqualTo(ServerSettings.PUBLISH_CHANNELS.defaultValue().doubleValue());
    assertThat(
            Scrapes.sum(
                text, "hikaricp_connections_max", Map.of("pool", "albumstore-server-reads")))
        .isEqualTo(ServerSettings.DB_POOL_SIZE.defaultValue().doubleValue());
    assertThat(Scrapes.sum(text, "rabbitmq_connections", Map.of())).isEqualTo(1);
    assertThat(Scrapes.sum(text, "rabbitmq_published_total", Map.of())).isZero();
    assertThat(Scrapes.sum(text, "tomcat_threads_config_max_threads", Map.of())).isPositive();
  }

  @Test
  void requestCountersAndWriteStagesMoveWithRealTrafficUnderTheRightEndpointAndStatus()
      throws Exception {
    String before = api.get("/metrics").body();
    String profile = Multipart.jsonProfile("Metrics", "Moving Counters", "2025");
    String albumId = null;
    for (int i = 0; i < 3; i++) {
      // Sent "250 ms ago": each of these spends at least that long in client send -> servlet in.
      Map<String, String> sent = Map.of("X-Request-Start", "t=" + epochMicros(-250_000));
      Api.Reply r = api.postAlbum(Multipart.album(IMAGE, profile), sent);
      assertThat(r.status()).isEqualTo(200);
      albumId = r.json().get("albumID");
    }
    for (int i = 0; i < 4; i++) {
      assertThat(api.post("/review/like/" + albumId).status()).isEqualTo(200);
    }
    // A send time in the future is clock skew, not a negative delay: not recorded.
    Map<String, String> skewed = Map.of("X-Request-Start", "t=" + epochMicros(10_000_000));
    assertThat(api.send("POST", "/review/like/" + albumId, null, null, skewed).status())
        .isEqualTo(200);
    assertThat(api.post("/review/maybe/" + albumId).status()).isEqualTo(400);
    assertThat(api.get("/no/such/path").status()).isEqualTo(404);

    // A write's request is counted when Tomcat completes it, a moment after the client has the
    // answer: poll, bounded.
    awaitCount(Map.of("uri", VOTE, "method", "POST", "status", "200"), 5);
    // A stage is timed on the publisher's threads, which may record it a moment after the client
    // has its 200: poll until every stage counts the 8 writes, bounded, before the exact checks.
    String text = awaitStages(8);
    assertThat(count(text, Map.of("uri", "/albums", "method", "POST", "status", "200")))
        .isEqualTo(3);
    assertThat(count(text, Map.of("uri", VOTE, "status", "400"))).isEqualTo(1);
    assertThat(count(text, Map.of("uri", "UNKNOWN", "status", "404"))).isEqualTo(1);
    assertThat(count(text, Map.of("uri", "/albums", "status", "503"))).isZero();

    // Every one of the 8 confirmed writes went through each stage exactly once; "arrival" only
    // the 3 with a plausible X-Request-Start, each at least 250 ms.
    assertThat(Scrapes.sum(text, STAGE, Map.of("stage", "arrival"))).isEqualTo(3);
    assertThat(Scrapes.sum(text, "albumstore_write_stage_seconds_sum", Map.of("stage", "arrival")))
        .isBetween(0.75, 0.75 + 3 * 10.0);
    for (String stage : STAGES) {
      if (stage.equals("arrival")) {
        continue;
      }
      assertThat(Scrapes.sum(text, STAGE, Map.of("stage", stage))).as(stage).isEqualTo(8);
      assertThat(Scrapes.sum(text, "albumstore_write_stage_seconds_sum", Map.of("stage", stage)))
          .as(stage)
          .isPositive();
    }
    double messages = Scrapes.sum(text, "albumstore_publish_confirm_seconds_count", Map.of());
    assertThat(messages).isBetween(1.0, 8.0);
    // amqp-client's own counters agree: every confirmed message was published and acknowledged.
    assertThat(Scrapes.sum(text, "rabbitmq_published_total", Map.of())).isEqualTo(messages);
    assertThat(Scrapes.sum(text, "rabbitmq_acknowledged_published_total", Map.of()))
        .isEqualTo(messages);
    assertThat(Scrapes.sum(text, "rabbitmq_not_acknowledged_published_total", Map.of())).isZero();
    // Tomcat's connector counted the requests and bytes, moving between two scrapes.
    for (String family :
        new String[] {
          "tomcat_global_request_seconds_count",
          "tomcat_global_sent_bytes_total",
          "tomcat_global_received_bytes_total"
        }) {
      assertThat(Scrapes.sum(text, family, Map.of()))
          .as(family)
          .isGreaterThan(Scrapes.sum(before, family, Map.of()));
    }
    assertThat(Scrapes.sum(text, "tomcat_global_request_seconds_count", Map.of()))
        .isGreaterThanOrEqualTo(10);
    assertThat(Scrapes.sum(text, "albumstore_publish_bundle_writes_sum", Map.of())).isEqualTo(8);
    assertThat(Scrapes.sum(text, "albumstore_publish_channels_in_use", Map.of())).isZero();
    assertThat(Scrapes.sum(text, "albumstore_publish_waiters", Map.of())).isZero();
    // The +Inf bucket of a histogram holds every sample.
    assertThat(
            Scrapes.sum(
                text,
                "albumstore_write_stage_seconds_bucket",
                Map.of("stage", "confirm", "le", "+Inf")))
        .isEqualTo(8);
  }

  /** Now plus {@code offsetMicros}, in microseconds since the epoch. */
  private static long epochMicros(long offsetMicros) {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000 + offsetMicros;
  }

  private static double count(String text, Map<String, String> labels) {
    return Scrapes.sum(text, REQUESTS, labels);
  }

  private String awaitStages(double expected) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      String text = api.get("/metrics").body();
      boolean all = true;
      for (String s : STAGES) {
        all &= s.equals("arrival") || Scrapes.sum(text, STAGE, Map.of("stage", s)) >= expected;
      }
      if (all) {
        return text;
      }
      if (System.nanoTime() > deadline) {
        fail("the write stages did not all reach " + expected + ":\n" + text);
      }
      Thread.sleep(20);
    }
  }

  private String awaitCount(Map<String, String> labels, double expected) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      String text = api.get("/metrics").body();
      if (count(text, labels) >= expected) {
        return text;
      }
      if (System.nanoTime() > deadline) {
        fail("counter " + labels + " did not reach " + expected + ":\n" + text);
      }
      Thread.sleep(20);
    }
  }
}
