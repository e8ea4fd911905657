package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.consumer.sql.AggregateWriter;
import org.albumstore.consumer.sql.BatchWriter;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A consumer stopped (SIGTERM's path, {@code close()}) while the broker node its connection is on
 * dies leaves every message it held to the next consumer, on a 3-node cluster of the installed
 * RabbitMQ with a quorum queue.
 *
 * <p>The window it closes: on RabbitMQ 3.10, a quorum queue does not give back the unacknowledged
 * deliveries of a consumer that was <em>cancelled</em> ({@code basic.cancel}) when that consumer's
 * node drops off the cluster: they stay checked out to it, also after the node is back, so their
 * writes are never applied. A consumer still registered gets them back at once. The nemesis found
 * it at 1,000 writes/s: an added consumer stopped while it drained, its node killed. So the
 * consumer's shutdown does not cancel; its channels' close hands back what it did not apply.
 */
class ConsumerNodeLossIT {
  private static final int PUBLISHED = 1_000;
  private static final int ALBUMS = 10;
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static RabbitCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    ExternalTools.system()
        .requireThat(
            RabbitCluster.installed(),
            "RabbitMQ (rabbitmq-server, rabbitmqctl; apt-get install rabbitmq-server)",
            "the consumer's node-loss test on a 3-node cluster");
    String prefix = "albumstore-cnl-" + UUID.randomUUID().toString().substring(0, 8);
    cluster = RabbitCluster.start(prefix, 3, Path.of("target", "rabbit-node-loss-it", prefix));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aConsumerStoppingWhenItsBrokerNodeDiesLeavesEveryMessageItHeldToTheNext() throws Exception {
    String queue = "it.node-loss." + UUID.randomUUID().toString().substring(0, 8);
    AmqpSettings stream =
        new AmqpSettings(cluster.uri(0), cluster.addresses(), queue, QueueType.QUORUM, 3);
    try (Fixture f = Fixture.create(stream)) {
      f.publishLikes(PUBLISHED, ALBUMS, 200);
      int leader = cluster.indexOf(cluster.leaderOf(queue).orElseThrow());
      int victim = (leader + 1) % 3; // a follower: the queue keeps its leader and its majority
      AmqpSettings onVictim = new AmqpSettings(cluster.uri(victim), "", queue, QueueType.QUORUM, 3);

      CountDownLatch inHand = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      boolean killed = false;
      // A long batch wait: the first batch is a full 50 even when the 400 deliveries trickle in
      // on a loaded machine (with the fixture's 10 ms, a first batch of fewer than 50 leaves more
      // than 550 ready for good, since the second batch is held).
      AlbumStoreConsumer first =
          AlbumStoreConsumer.start(
              AlbumStoreConsumer.Options.of(Fixture.settings(1, 1, 400, 50, 5_000), onVictim, f.db)
                  // its /health tells when the stop has begun
                  .withMetrics(new MetricsSettings(0, "127.0.0.1"))
                  .withWriters(heldAtSecondBatch(inHand, release)));
      try {
        assertThat(inHand.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        // The prefetch refilled: the first batch acknowledged, 400 more delivered and held.
        await(
            "the prefetch full: at most " + (PUBLISHED - 400) + " ready less the applied",
            WAIT,
            () -> f.ready() <= PUBLISHED - 400 - first.counters().messagesApplied());
        assertThat(first.counters().messagesApplied()).isEqualTo(50); // the first batch, whole
        CompletableFuture<Void> stopping = CompletableFuture.runAsync(first::close);
        await("the first consumer stopping, its batch in hand held", WAIT, () -> draining(first));
        cluster.kill(victim);
        killed = true;
        // The queue's leader learns of the node's loss from the same node-down as its node does.
        String victimNode = cluster.nodes().get(victim).nodeName();
        await(
            "the leader's node sees the consumer's node gone",
            WAIT,
            () -> !cluster.runningNodesSeenBy(leader).contains(victimNode));
        release.countDown();
        stopping.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      } finally {
        release.countDown();
        first.close();
        if (killed) { // else the node still runs, and the failure above is the one to see
          cluster.restart(victim);
        }
      }
      long appliedByFirst = first.counters().reviewsApplied();
      assertThat(appliedByFirst).isBetween(50L, (long) PUBLISHED - 1);

      f.start(Fixture.settings(1, 2, 200, 50));
      await("every like applied", WAIT, () -> f.totalReviews() == PUBLISHED);
      await("the queue drained", WAIT, () -> f.ready() == 0);
      for (int album = 0; album < ALBUMS; album++) {
        assertThat(f.counts(f.album(album))).containsExactly(PUBLISHED / ALBUMS, 0);
      }
    }
  }

  /** Whether the consumer's {@code /health} says it is stopping ({@code close()} has begun). */
  private static boolean draining(AlbumStoreConsumer consumer) throws Exception {
    HttpResponse<String> health =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + consumer.metricsPort() + "/health"))
                .timeout(Duration.ofSeconds(20)) // a loaded machine; readiness never waits
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return health.statusCode() == 503 && health.body().contains("\"status\":\"DRAINING\"");
  }

  /** The real writer, whose second batch waits for {@code release} once it is in hand. */
  private static AggregateWriter.Factory heldAtSecondBatch(
      CountDownLatch inHand, CountDownLatch release) {
    AtomicInteger writes = new AtomicInteger();
    return pool -> {
      AggregateWriter real = new BatchWriter(pool);
      return batch -> {
        if (writes.incrementAndGet() == 2) {
          inHand.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while held", e);
          }
        }
        return real.write(batch);
      };
    };
  }
}
