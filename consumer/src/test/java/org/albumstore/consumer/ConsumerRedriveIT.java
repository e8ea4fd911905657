package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.GetResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.consumer.internal.amqp.DeadLetterPublisher;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * {@code albumstore-consumer redrive}: what a consumer of an earlier release dead-lettered (version
 * 2 messages it could not read) goes back to the write queue and is applied exactly once; a message
 * the dead-letter queue holds twice goes back once (one copy per message ID); what is still poison
 * comes back to the dead-letter queue with its current reason, once, and a second run moves it
 * again only then.
 */
class ConsumerRedriveIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String OLD_REASON =
      "invalid message: unknown version 2 (this consumer reads version 1)";

  @AutoClose private Fixture f;
  private AlbumStoreConsumer consumer;

  /** Dead-letters a message the way the consumer does, through its own publisher. */
  private static void deadLetter(DeadLetterPublisher dl, byte[] body, AMQP.BasicProperties props)
      throws Exception {
    Envelope envelope = new Envelope(1, false, "", Topology.ROUTING_KEY);
    dl.publish(new Delivery(envelope, props, body), OLD_REASON);
  }

  @Test
  void deadLetteredMessagesGoBackAndApplyOnceAndPoisonReturnsWithItsCurrentReason(TestInfo info)
      throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    Map<String, long[]> expected = new HashMap<>();
    List<WriteBundle> messages = new ArrayList<>();
    for (int m = 0; m < 20; m++) {
      List<AlbumVotes> votes = new ArrayList<>();
      for (int k = 0; k < 3; k++) {
        String album = f.album((m + k) % 7);
        votes.add(new AlbumVotes(album, m % 3 + 1, k));
        long[] c = expected.computeIfAbsent(album, a -> new long[2]);
        c[0] += m % 3 + 1;
        c[1] += k;
      }
      Review keyed = new Review(UUID.randomUUID(), f.album(m % 7), Vote.DISLIKE, true);
      expected.get(keyed.albumId())[1]++;
      messages.add(
          new WriteBundle(
              2, System.currentTimeMillis(), UUID.randomUUID(), List.of(), List.of(keyed), votes));
    }
    byte[] garbage = {'{', 'n', 'o'};
    try (Connection c = AmqpConnections.open(f.amqp, "it-earlier-consumer");
        DeadLetterPublisher dl = new DeadLetterPublisher(c, f.amqp, 10_000)) {
      for (WriteBundle b : messages) {
        deadLetter(dl, EventCodec.encode(b), EventCodec.properties(b));
      }
      // An earlier consumer that crashed between the dead letter's confirm and its ack
      // dead-letters the redelivered original again: the same message twice.
      deadLetter(dl, EventCodec.encode(messages.get(0)), EventCodec.properties(messages.get(0)));
      deadLetter(dl, garbage, new AMQP.BasicProperties.Builder().messageId("garbage").build());
    }
    await("22 dead letters", WAIT, () -> f.deadLetters() == 22);

    Fixture.Redrive run = f.redrive();

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "moved 21 messages from " + f.amqp.deadLetterQueue() + " to " + f.amqp.queue(),
            "      21  " + OLD_REASON,
            "       1  acknowledged without a copy: their message ID was already moved");
    assertThat(f.deadLetters()).isZero();
    assertThat(f.ready()).isEqualTo(21);
    try (Connection c = AmqpConnections.open(f.amqp, "it-peek")) {
      Channel ch = c.createChannel();
      GetResponse moved = ch.basicGet(f.amqp.queue(), false); // requeued when the channel closes
      assertThat(moved.getProps().getHeaders()).doesNotContainKey(Topology.REASON_HEADER);
      assertThat(String.valueOf(moved.getProps().getHeaders().get(EventCodec.VERSION_HEADER)))
          .isEqualTo("2");
      assertThat(moved.getProps().getMessageId()).isEqualTo(messages.get(0).id().toString());
      ch.close();
    }
    Fixture.Redrive again = f.redrive();
    assertThat(again.code()).isZero();
    assertThat(again.out()).contains("moved 0 messages");
    assertThat(f.ready()).isEqualTo(21);

    consumer = f.start(Fixture.settings(1, 2, 50, 50));
    await("queue drained", WAIT, () -> f.ready() == 0 && f.deadLetters() == 1);
    // Every vote and keyed review once, message 0 included although it arrived twice.
    long total = expected.values().stream().mapToLong(c -> c[0] + c[1]).sum();
    await("all applied", WAIT, () -> f.totalReviews() == total);
    for (Map.Entry<String, long[]> e : expected.entrySet()) {
      assertThat(f.counts(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
    }
    try (Connection c = AmqpConnections.open(f.amqp, "it-dlq-reader");
        Channel ch = c.createChannel()) {
      GetResponse back = ch.basicGet(f.amqp.deadLetterQueue(), true);
      assertThat(back.getBody()).isEqualTo(garbage);
      assertThat(String.valueOf(back.getProps().getHeaders().get(Topology.REASON_HEADER)))
          .startsWith("invalid message: undecodable body");
    }
    assertThat(consumer.counters().deadLettered()).isEqualTo(1);
  }

  /**
   * A message that the running consumers dead-letter again while the redrive goes on comes round
   * with this run's mark: the run stops there and leaves it, instead of going round for ever (the
   * queue's count is not the bound: a quorum queue's can lag).
   */
  @Test
  void aMessageDeadLetteredAgainDuringTheRunIsLeftForTheNext(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    WriteBundle unreadable =
        new WriteBundle(
            99,
            System.currentTimeMillis(),
            UUID.randomUUID(),
            List.of(),
            List.of(new Review(UUID.randomUUID(), f.album(1), Vote.LIKE, true)));
    try (Connection c = AmqpConnections.open(f.amqp, "it-earlier-consumer");
        DeadLetterPublisher dl = new DeadLetterPublisher(c, f.amqp, 10_000)) {
      deadLetter(dl, EventCodec.encode(unreadable), EventCodec.properties(unreadable));
    }
    await("1 dead letter", WAIT, () -> f.deadLetters() == 1);
    consumer = f.start(Fixture.settings(1, 1, 10, 10)); // reads 1 to 3: dead-letters it again

    Fixture.Redrive run = f.redrive();

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("moved 1 messages from " + f.amqp.deadLetterQueue());
    await("dead-lettered again", WAIT, () -> f.deadLetters() == 1 && f.ready() == 0);
    assertThat(consumer.counters().deadLettered()).isEqualTo(1);
  }
}
