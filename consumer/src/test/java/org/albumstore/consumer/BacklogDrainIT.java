package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A consumer whose partial batches wait during a backlog ({@code --backlog-wait-ms}) still applies
 * every message exactly once ({@code amqp/BacklogWatchIT}: when the watch calls it a backlog).
 */
class BacklogDrainIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @AutoClose private Fixture f;

  @Test
  void aConsumerThatWaitsDuringABacklogAppliesEveryMessageOnce() throws Exception {
    f = Fixture.create("backlog-drain");
    int messages = 3_000;
    f.publishLikes(messages, 10, 500);
    // 2 workers x batches of 100: a backlog above 200 ready messages arms a 20 ms wait.
    AlbumStoreConsumer consumer =
        f.start(new ConsumerSettings(1, 2, 200, 100, 0, 20, 2, false, 3600));
    await("every message applied", WAIT, () -> f.totalReviews() >= messages);
    consumer.close(); // finishes the batches in hand: nothing is applied after this

    assertThat(f.totalReviews()).isEqualTo(messages);
    assertThat(consumer.counters().messagesApplied()).isEqualTo(messages);
    assertThat(f.ready()).as("nothing left in the queue").isZero();
  }
}
