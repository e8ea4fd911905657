package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.albumstore.consumer.Fixture.review;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Outages, staged with a TCP proxy between the consumer and the real service: the consumer waits
 * them out and ends with exact counts.
 */
class ConsumerOutageIT {
  private static final Duration WAIT = Duration.ofSeconds(90);

  @AutoClose private Fixture f;
  private AlbumStoreConsumer consumer;

  private List<WriteBundle> singleLikes(int count, int albums) {
    List<WriteBundle> messages = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      messages.add(Bundles.reviews(List.of(review(f.album(n % albums), Vote.LIKE))));
    }
    return messages;
  }

  @Test
  void whileTheDatabaseIsDownNothingIsAcknowledgedAndEverythingIsAppliedOnceItIsBack(TestInfo info)
      throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    consumer = f.start(Fixture.settings(1, 2, 100, 50), f.amqp, f.databaseThroughProxy());

    f.publishAll(singleLikes(200, 5));
    await("first 200 applied", WAIT, () -> f.totalReviews() == 200);

    f.proxy().cut();
    f.publishAll(singleLikes(300, 5));
    Thread.sleep(2_000); // several failed attempts and back-offs
    assertThat(consumer.counters().messagesApplied()).isEqualTo(200);
    assertThat(f.totalReviews()).isEqualTo(200);

    f.proxy().restore();
    await("all 500 applied", WAIT, () -> f.totalReviews() == 500);
    await("queue drained", WAIT, () -> f.ready() == 0);
    for (int album = 0; album < 5; album++) {
      assertThat(f.counts(f.album(album))).containsExactly(100, 0);
    }
    assertThat(consumer.counters().reviewsApplied()).isEqualTo(500);
  }

  @Test
  void afterABrokerConnectionLossTheConsumerRecoversAndRedeliveriesChangeNothing(TestInfo info)
      throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    AmqpSettings viaProxy = f.brokerThroughProxy();
    f.publishAll(singleLikes(3_000, 10));

    // Small batches and a full prefetch: when the cut comes, each channel has deliveries in hand.
    consumer = f.start(Fixture.settings(1, 2, 100, 25), viaProxy, f.db);
    await("some applied", WAIT, () -> consumer.counters().messagesApplied() >= 300);
    f.proxy().dropConnections(); // abrupt loss; amqp-client recovers within about a second

    await("all 3000 applied", WAIT, () -> f.totalReviews() == 3_000);
    await("queue drained", WAIT, () -> f.ready() == 0);
    for (int album = 0; album < 10; album++) {
      assertThat(f.counts(f.album(album))).containsExactly(300, 0);
    }
    assertThat(consumer.counters().reviewsApplied()).isEqualTo(3_000);

    // Still consuming on the recovered connection.
    f.publishAll(singleLikes(10, 10));
    await("applied after recovery", WAIT, () -> f.totalReviews() == 3_010);
    // The cut did hit unacknowledged deliveries, so the exact counts above include redeliveries.
    assertThat(consumer.counters().redelivered()).isPositive();
  }
}
