package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.albumstore.consumer.Fixture.review;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.event.Vote;
import org.albumstore.embedded.testing.Bundles;
import org.albumstore.embedded.testing.Locks;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The consumer's {@code /health} and {@code /health/live} against the real broker and database:
 * ready while running; 503 naming the dependency while the database or the broker is cut off (a TCP
 * proxy between them), ready again once it is back; liveness 200 throughout; and 503 DRAINING first
 * when told to stop, while it still finishes the batch in hand.
 */
class ConsumerHealthIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String READY =
      "{\"status\":\"UP\",\"broker\":\"UP\",\"database\":\"UP\",\"consuming\":\"UP\"}";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  @AutoClose private Fixture f;
  private AlbumStoreConsumer consumer;

  /** One worker and a pool of two: the readiness probe never waits for the worker's connection. */
  private AlbumStoreConsumer start(AmqpSettings amqp, DatabaseSettings db) throws Exception {
    return f.start(
        new ConsumerSettings(1, 1, 10, 10, 10, 0, 2, false, 3600),
        amqp,
        db,
        new MetricsSettings(0, "127.0.0.1"));
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + consumer.metricsPort() + path))
            .timeout(Duration.ofSeconds(20)) // a loaded machine; readiness never waits
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private void assertLive() throws Exception {
    HttpResponse<String> live = get("/health/live");
    assertThat(live.statusCode()).isEqualTo(200);
    assertThat(live.body()).isEqualTo("{\"status\":\"UP\"}");
    assertThat(live.headers().firstValue("Content-Type")).hasValue("application/json");
  }

  private void awaitReady() throws Exception {
    await("ready", WAIT, () -> get("/health").statusCode() == 200);
    HttpResponse<String> ready = get("/health");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).isEqualTo(READY);
  }

  @Test
  void readyWhileRunningAndNotReadyWhileTheDatabaseIsCutOff(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    consumer = start(f.amqp, f.databaseThroughProxy());
    awaitReady();
    assertLive();

    f.proxy().cut();
    await(
        "database DOWN",
        WAIT,
        () -> {
          HttpResponse<String> r = get("/health");
          return r.statusCode() == 503 && r.body().contains("\"database\":\"DOWN\"");
        });
    HttpResponse<String> down = get("/health");
    assertThat(down.body())
        .isEqualTo(
            "{\"status\":\"DOWN\",\"broker\":\"UP\",\"database\":\"DOWN\",\"consuming\":\"UP\"}");
    assertLive(); // an outage is waited out, not a reason to restart

    f.proxy().restore();
    awaitReady();
  }

  @Test
  void notReadyWhileTheBrokerIsCutOff(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    consumer = start(f.brokerThroughProxy(), f.db);
    awaitReady();

    f.proxy().cut();
    await(
        "broker DOWN",
        WAIT,
        () -> {
          HttpResponse<String> r = get("/health");
          return r.statusCode() == 503 && r.body().contains("\"broker\":\"DOWN\"");
        });
    assertLive();

    f.proxy()
        .restore(); // amqp-client's automatic recovery reconnects and re-registers the consumer
    awaitReady();
    f.publish(Bundles.reviews(List.of(review(f.album(1), Vote.LIKE))));
    await("applied after recovery", WAIT, () -> f.totalReviews() == 1);
  }

  @Test
  void aStopReportsNotReadyFirstWhileTheBatchInHandFinishes(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    consumer = start(f.amqp, f.db);
    f.publish(Bundles.reviews(List.of(review(f.album(1), Vote.LIKE))));
    await("first applied", WAIT, () -> f.totalReviews() == 1);
    awaitReady();

    CompletableFuture<Void> stopping;
    // Holds the album's counter row: the next batch's upsert waits for it, so the stop has a batch
    // in hand to finish for as long as this transaction stays open.
    try (Connection blocker = f.reads().getConnection()) {
      blocker.setAutoCommit(false);
      try (PreparedStatement lock =
          blocker.prepareStatement(
              "SELECT likes FROM album_reviews WHERE album_id = ? FOR UPDATE")) {
        lock.setString(1, f.album(1));
        lock.executeQuery().close();
      }
      f.publish(Bundles.reviews(List.of(review(f.album(1), Vote.LIKE))));
      // In hand: the batch's upsert waits for the blocker's lock. (Not the queue's ready count:
      // the embedded broker counts a delivered, unacknowledged message as still in the queue.)
      int blockerPid = Locks.backendPid(blocker);
      await("batch in hand", WAIT, () -> Locks.waitingOn(f.reads(), blockerPid) > 0);

      AlbumStoreConsumer stopped = consumer;
      stopping = CompletableFuture.runAsync(stopped::close);
      await(
          "DRAINING",
          WAIT,
          () -> {
            HttpResponse<String> r = get("/health");
            return r.statusCode() == 503 && r.body().contains("\"status\":\"DRAINING\"");
          });
      assertLive();
      assertThat(stopping).isNotDone();
      blocker.rollback();
    }
    stopping.get();
    assertThat(f.totalReviews()).isEqualTo(2); // the batch in hand was finished, not dropped
    assertThat(consumer.counters().messagesApplied()).isEqualTo(2);
  }
}
