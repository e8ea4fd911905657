package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.albumstore.consumer.Fixture.review;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.time.Duration;
import java.util.List;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.consumer.amqp.BacklogWatch;
import org.albumstore.embedded.testing.Bundles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The backlog that arms the partial-batch wait ({@code --backlog-wait-ms}): the watch sees the
 * ready messages of every partition against its threshold, and lets go once they are gone; a
 * consumer that waits during a backlog still applies every message exactly once.
 */
class BacklogWatchIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private Fixture f;

  @AfterEach
  void tearDown() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  @Test
  void theWatchSeesABacklogInAnyPartitionAndLetsGoOnceItIsGone() throws Exception {
    f = Fixture.create("backlog-watch", 2);
    AmqpSettings.Partition second = f.amqp.partition(1);
    try (BacklogWatch watch =
        BacklogWatch.start(AmqpConnections.open(f.amqp, "it-backlog-watch"), f.amqp, 20, 10)) {
      publishTo(second, 20);
      Thread.sleep(3 * 1000); // three polls: 20 ready is not more than the threshold
      assertThat(watch.getAsBoolean()).as("20 ready against a threshold of 20").isFalse();

      publishTo(second, 1);
      await("a backlog of 21 in partition 1", WAIT, watch::getAsBoolean);

      try (Connection c = AmqpConnections.open(f.amqp, "it-backlog-purge");
          Channel ch = c.createChannel()) {
        ch.queuePurge(second.queue());
      }
      await("no backlog once the partition is empty", WAIT, () -> !watch.getAsBoolean());
    }
  }

  @Test
  void aConsumerThatWaitsDuringABacklogAppliesEveryMessageOnce() throws Exception {
    f = Fixture.create("backlog-drain");
    int messages = 3_000;
    f.publishLikes(messages, 10, 500);
    // 2 workers x batches of 100: a backlog above 200 ready messages arms a 20 ms wait.
    ConsumerSettings s = new ConsumerSettings(1, 2, 200, 100, 0, 20, 2, false, 3600);
    try (AlbumStoreConsumer consumer = AlbumStoreConsumer.start(s, f.amqp, f.db)) {
      await("every message applied", WAIT, () -> f.totalReviews() >= messages);
      await("the queue empty", WAIT, () -> f.ready() == 0);
      Thread.sleep(500); // a message applied twice would show now
      assertThat(f.totalReviews()).isEqualTo(messages);
      assertThat(consumer.counters().messagesApplied()).isEqualTo(messages);
    }
  }

  private void publishTo(AmqpSettings.Partition p, int messages) throws Exception {
    for (int i = 0; i < messages; i++) {
      WriteBundle b = Bundles.reviews(List.of(review(f.album(i), Vote.LIKE)));
      f.publish(p, EventCodec.encode(b), EventCodec.properties(b));
    }
  }
}
