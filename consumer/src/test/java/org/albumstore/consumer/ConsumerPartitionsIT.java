package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.albumstore.consumer.Fixture.review;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A stream of several queues ({@code ALBUMSTORE_QUEUE_PARTITIONS}): the consumer applies what every
 * partition holds, exactly once; when P shrank, the partitions left past it are drained rather than
 * stranded; a message found in two partitions applies once; a poison message is dead-lettered
 * beside its own partition, and {@code redrive} returns it there.
 */
class ConsumerPartitionsIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @AutoClose private Fixture f;
  private AlbumStoreConsumer consumer;

  /**
   * Publishes to every partition of {@code f}: per partition, one album with a like, and {@code
   * perPartition} reviews of album 0. Returns the reviews published.
   */
  private int publishToEveryPartition(int perPartition) throws Exception {
    int reviews = 0;
    for (AmqpSettings.Partition p : f.amqp.partitionList()) {
      String album = f.album(100 + p.index());
      WriteBundle withAlbum =
          new WriteBundle(
              EventCodec.VERSION,
              System.currentTimeMillis(),
              List.of(new NewAlbum(album, new AlbumProfile("A", "T", "2001"), new byte[] {1})),
              List.of(review(album, Vote.LIKE)));
      publish(p, withAlbum);
      reviews++;
      List<Review> likes = new ArrayList<>();
      for (int i = 0; i < perPartition; i++) {
        likes.add(review(f.album(0), Vote.LIKE));
      }
      publish(p, Bundles.reviews(likes));
      reviews += perPartition;
    }
    return reviews;
  }

  private void publish(AmqpSettings.Partition p, WriteBundle b) throws Exception {
    f.publish(p, EventCodec.encode(b), EventCodec.properties(b));
  }

  private long ready(AmqpSettings.Partition p) throws Exception {
    return TestServices.messageCount(f.amqp, p.queue());
  }

  @Test
  void aConsumerWithASmallerPDrainsThePartitionsLeftPastIt(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName(), 3);
    int reviews = publishToEveryPartition(5);
    assertThat(ready(f.amqp.partition(2))).isEqualTo(2);

    consumer = f.start(Fixture.settings(1, 2, 50, 50), f.amqp.withPartitions(2), f.db);

    await("every partition applied", WAIT, () -> f.totalReviews() == reviews);
    assertThat(f.albumRows()).isEqualTo(3);
    assertThat(f.counts(f.album(0))).containsExactly(15, 0);
    for (AmqpSettings.Partition p : f.amqp.partitionList()) {
      await(p.queue() + " acknowledged", WAIT, () -> ready(p) == 0);
    }
    assertThat(consumer.counters().messagesApplied()).isEqualTo(6);
  }

  @Test
  void everyPartitionIsConsumedAndAMessageInTwoPartitionsAppliesOnce(TestInfo info)
      throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName(), 3);
    consumer = f.start(Fixture.settings(2, 2, 50, 50));
    int reviews = publishToEveryPartition(40);
    await("every partition applied", WAIT, () -> f.totalReviews() == reviews);
    // The same messages again (a redelivery in another partition's clothes): nothing moves.
    for (AmqpSettings.Partition p : f.amqp.partitionList()) {
      WriteBundle again = Bundles.reviews(List.of(review(f.album(0), Vote.DISLIKE)));
      byte[] body = EventCodec.encode(again);
      AMQP.BasicProperties props = EventCodec.properties(again);
      f.publish(p, body, props);
      f.publish(f.amqp.partition((p.index() + 1) % 3), body, props);
    }
    await("the copies applied", WAIT, () -> consumer.counters().messagesApplied() == 12);
    assertThat(f.counts(f.album(0))).containsExactly(120, 3);
    assertThat(f.albumRows()).isEqualTo(3);
  }

  @Test
  void aPoisonMessageIsDeadLetteredBesideItsPartitionAndRedriveReturnsItThere(TestInfo info)
      throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName(), 2);
    AmqpSettings.Partition second = f.amqp.partition(1);
    consumer = f.start(Fixture.settings(1, 1, 50, 50));
    f.publish(
        second,
        new byte[] {'{', 'n', 'o'},
        new AMQP.BasicProperties.Builder().messageId("x").build());
    await(
        "dead-lettered in " + second.deadLetterQueue(),
        WAIT,
        () -> TestServices.messageCount(f.amqp, second.deadLetterQueue()) == 1);
    assertThat(f.deadLetters()).as("partition 0's dead-letter queue").isZero();
    consumer.close();
    consumer = null;

    Fixture.Redrive run = f.redrive("--queue-partitions", "2");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "moved 0 messages from " + f.amqp.deadLetterQueue() + " to " + f.amqp.queue(),
            "moved 1 messages from " + second.deadLetterQueue() + " to " + second.queue());
    assertThat(ready(second)).isEqualTo(1);
    assertThat(TestServices.messageCount(f.amqp, second.deadLetterQueue())).isZero();
  }
}
