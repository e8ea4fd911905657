package org.albumstore.server.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;

/**
 * What the publisher does without ever reaching a broker: it never confirms, and every future
 * completes with a reason. (With a broker: WritePathIT.)
 */
class ConfirmedPublisherTest {
  private static final AmqpSettings NOWHERE =
      AmqpSettings.from(Env.of(Map.of())).withQueue("never-declared");

  @Test
  void aFullQueueRefusesAtOnceAndCloseFailsWhatWasQueued() throws Exception {
    BrokerConnector neverStarted = new BrokerConnector(NOWHERE, "test");
    ConfirmedPublisher p =
        new ConfirmedPublisher(neverStarted, limits(1), NO_OBSERVER); // threads not started
    CompletableFuture<Void> queued = p.submit(review());
    CompletableFuture<Void> refused = p.submit(review());

    assertThat(queued).isNotDone();
    assertThat(reason(refused)).isSameAs(Rejections.OVERLOADED);
    assertThat(p.queued()).isEqualTo(1);

    p.close(Duration.ofSeconds(1));
    assertThat(reason(queued)).isSameAs(Rejections.SHUTTING_DOWN);
    assertThat(reason(p.submit(review()))).isSameAs(Rejections.SHUTTING_DOWN);
    neverStarted.close(Duration.ofSeconds(1));
  }

  @Test
  void withoutABrokerConnectionWritesFailAsUnavailable() throws Exception {
    BrokerConnector neverStarted = new BrokerConnector(NOWHERE, "test");
    ConfirmedPublisher p = new ConfirmedPublisher(neverStarted, limits(100), NO_OBSERVER);
    p.start();
    try {
      assertThat(reason(p.submit(review()))).isSameAs(Rejections.BROKER_UNAVAILABLE);
    } finally {
      p.close(Duration.ofSeconds(5));
      neverStarted.close(Duration.ofSeconds(1));
    }
  }

  /** The metrics hear of every refused write, once, with its reason. */
  @Test
  void everyRefusalIsReportedWithItsReason() throws Exception {
    Map<String, Integer> reported = new ConcurrentHashMap<>();
    PublishObserver counting =
        new PublishObserver() {
          @Override
          public void writesRejected(WriteRejectedException why, int writes) {
            reported.merge(why.reason(), writes, Integer::sum);
          }
        };
    BrokerConnector neverStarted = new BrokerConnector(NOWHERE, "test");
    ConfirmedPublisher p = new ConfirmedPublisher(neverStarted, limits(1), counting);
    p.submit(review()); // queued, refused by the close
    p.submit(review()); // overloaded
    p.submit(review()); // overloaded
    p.close(Duration.ofSeconds(1));
    p.submit(review()); // shutting down
    neverStarted.close(Duration.ofSeconds(1));

    assertThat(reported)
        .containsExactlyInAnyOrderEntriesOf(Map.of("overloaded", 2, "shutting_down", 2));
    assertThat(ConfirmedPublisher.rejectionReasons())
        .containsAll(reported.keySet())
        .contains("confirm_timeout", "broker_blocked")
        .doesNotHaveDuplicates();
  }

  private static final PublishObserver NO_OBSERVER = new PublishObserver() {};

  private static PublisherSettings limits(int queueMax) {
    return new PublisherSettings(2, queueMax, 256, 1024 * 1024, 1_000, EventCodec.VERSION);
  }

  private static Review review() {
    return new Review(UUID.randomUUID(), "42", Vote.LIKE);
  }

  private static Throwable reason(CompletableFuture<Void> f) throws Exception {
    try {
      f.get(10, TimeUnit.SECONDS);
      throw new AssertionError("the write was confirmed without a broker");
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }
}
