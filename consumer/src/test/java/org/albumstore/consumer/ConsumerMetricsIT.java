package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.albumstore.consumer.Fixture.review;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;
import org.albumstore.embedded.testing.Scrapes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The consumer's {@code GET /metrics} against the real broker and database: the documented names
 * are there, and the counters and stage timers move with real messages, by the right amounts.
 */
class ConsumerMetricsIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String STAGE = "albumstore_consumer_write_stage_seconds_count";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Fixture f;
  private AlbumStoreConsumer consumer;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    consumer =
        AlbumStoreConsumer.start(
            AlbumStoreConsumer.Options.of(Fixture.settings(1, 2, 100, 50), f.amqp, f.db)
                .withMetrics(new MetricsSettings(0, "127.0.0.1")));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (consumer != null) {
      consumer.close();
    }
    f.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + consumer.metricsPort() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String scrape() throws Exception {
    HttpResponse<String> r = get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  private static double value(String text, String name) {
    return Scrapes.sum(text, name, Map.of());
  }

  @Test
  void theEndpointServesTheDocumentedNamesOnItsOwnPort() throws Exception {
    assertThat(consumer.metricsPort()).isPositive();
    assertThat(consumer.metricsUrl())
        .isEqualTo("http://127.0.0.1:" + consumer.metricsPort() + "/metrics");
    HttpResponse<String> r = get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("text/plain")
        .contains("version=0.0.4");
    String text = r.body();
    for (String name :
        new String[] {
          "albumstore_consumer_messages_applied_total",
          "albumstore_consumer_reviews_applied_total",
          "albumstore_consumer_albums_inserted_total",
          "albumstore_consumer_transactions_total",
          "albumstore_consumer_redelivered_total",
          "albumstore_consumer_dead_lettered_total",
          "albumstore_consumer_batch_messages_count",
          "albumstore_consumer_batch_apply_seconds_bucket",
          "albumstore_consumer_batch_commit_seconds_sum",
          "albumstore_consumer_write_stage_seconds_bucket",
          "albumstore_consumer_visibility_seconds_count",
          "hikaricp_connections_active",
          "hikaricp_connections_acquire_seconds_count",
          "albumstore_consumer_ledger_pruned_total",
          "rabbitmq_connections",
          "rabbitmq_channels",
          "rabbitmq_consumed_total",
          "rabbitmq_acknowledged_total",
          "rabbitmq_published_total",
          "jvm_memory_used_bytes",
          "jvm_threads_live_threads",
          "jvm_classes_loaded_classes",
          "process_uptime_seconds"
        }) {
      assertThat(Scrapes.has(text, name)).as(name).isTrue();
    }
    assertThat(value(text, "albumstore_consumer_messages_applied_total")).isZero();
    assertThat(Scrapes.sum(text, "hikaricp_connections_max", Map.of("pool", "albumstore-consumer")))
        .isEqualTo(2);
    assertThat(
            Scrapes.sum(
                text, "hikaricp_connections_max", Map.of("pool", "albumstore-consumer-ledger")))
        .isEqualTo(1);
    // amqp-client's collector: one connection, two consuming channels (plus none used yet).
    assertThat(value(text, "rabbitmq_connections")).isEqualTo(1);
    assertThat(value(text, "rabbitmq_channels")).isGreaterThanOrEqualTo(2);
    assertThat(get("/other").statusCode()).isEqualTo(404);
    assertThat(
            http.send(
                    HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + consumer.metricsPort() + "/metrics"))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(405);
  }

  @Test
  void countersAndStageTimersMoveWithRealMessages() throws Exception {
    // 20 messages of 3 reviews, 1 message of 2 albums + 1 review, 1 undecodable message:
    // 21 applied, 60 + 3 = 63 writes, 1 dead-lettered.
    List<WriteBundle> messages = new ArrayList<>();
    for (int n = 0; n < 20; n++) {
      List<Review> three = new ArrayList<>();
      for (int k = 0; k < 3; k++) {
        three.add(review(f.album(n % 4), Vote.LIKE));
      }
      messages.add(Bundles.reviews(three));
    }
    String a = f.album(9);
    messages.add(
        new WriteBundle(
            EventCodec.VERSION,
            System.currentTimeMillis(),
            List.of(
                new NewAlbum(a, new AlbumProfile("M", "Metrics", "2025"), new byte[] {1}),
                new NewAlbum(f.album(10), new AlbumProfile("M", "More", "2025"), new byte[] {2})),
            List.of(review(a, Vote.DISLIKE))));
    f.publishAll(messages);
    f.publish(
        new byte[] {'n', 'o', 't', ' ', 'j', 's', 'o', 'n'},
        new AMQP.BasicProperties.Builder().deliveryMode(2).messageId("bad").build());

    await("all applied", WAIT, () -> consumer.counters().messagesApplied() == 21);
    await("dead-lettered", WAIT, () -> consumer.counters().deadLettered() == 1);
    // The announcements go out after the commits, from a thread of their own.
    await(
        "announced",
        WAIT,
        () ->
            Scrapes.sum(
                    scrape(),
                    "albumstore_consumer_announcements_total",
                    Map.of("outcome", "published"))
                > 0);
    String text = scrape();

    // amqp-client's own counters move with the same messages: 22 delivered, 21 acknowledged after
    // their commit (the poison one too, once its dead-letter copy was confirmed), 1 published.
    assertThat(value(text, "rabbitmq_consumed_total")).isEqualTo(22);
    assertThat(value(text, "rabbitmq_acknowledged_total")).isEqualTo(22);
    assertThat(value(text, "rabbitmq_published_total")).isEqualTo(1);

    assertThat(value(text, "albumstore_consumer_messages_applied_total")).isEqualTo(21);
    assertThat(value(text, "albumstore_consumer_reviews_applied_total")).isEqualTo(61);
    assertThat(value(text, "albumstore_consumer_albums_inserted_total")).isEqualTo(2);
    // Every commit that changed something was announced to the servers, none dropped.
    assertThat(
            Scrapes.sum(
                text, "albumstore_consumer_announcements_total", Map.of("outcome", "published")))
        .isBetween(1.0, value(text, "albumstore_consumer_transactions_total"));
    assertThat(
            Scrapes.sum(
                text, "albumstore_consumer_announcements_total", Map.of("outcome", "dropped")))
        .isZero();
    assertThat(value(text, "albumstore_consumer_dead_lettered_total")).isEqualTo(1);
    assertThat(value(text, "albumstore_consumer_redelivered_total")).isZero();
    double transactions = value(text, "albumstore_consumer_transactions_total");
    assertThat(transactions).isBetween(1.0, 21.0);
    assertThat(value(text, "albumstore_consumer_batch_messages_count")).isEqualTo(transactions);
    assertThat(value(text, "albumstore_consumer_batch_messages_sum")).isEqualTo(21);
    assertThat(value(text, "albumstore_consumer_batch_commit_seconds_count"))
        .isEqualTo(transactions);
    assertThat(value(text, "albumstore_consumer_batch_apply_seconds_sum")).isPositive();

    // Per write: every stage and the visibility hold one sample for each of the 63 writes.
    for (String stage : new String[] {"queue", "batch_wait", "apply", "commit"}) {
      assertThat(Scrapes.sum(text, STAGE, Map.of("stage", stage))).as(stage).isEqualTo(63);
    }
    assertThat(value(text, "albumstore_consumer_visibility_seconds_count")).isEqualTo(63);
    // The statements and the commit that follows them take time together.
    assertThat(
            Scrapes.sum(
                    text, "albumstore_consumer_write_stage_seconds_sum", Map.of("stage", "apply"))
                + Scrapes.sum(
                    text, "albumstore_consumer_write_stage_seconds_sum", Map.of("stage", "commit")))
        .isPositive();
    // Published before the consumer saw them, so visible no sooner than they were delivered.
    assertThat(value(text, "albumstore_consumer_visibility_seconds_sum"))
        .isGreaterThanOrEqualTo(
            Scrapes.sum(
                text, "albumstore_consumer_write_stage_seconds_sum", Map.of("stage", "queue")));
  }
}
