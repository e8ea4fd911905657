package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.consumer.sql.Aggregate;
import org.albumstore.consumer.sql.BatchWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The ledger with message IDs, against the real broker and database: the unkeyed reviews of a
 * message take one ledger row (its message ID) and still apply exactly once when the message is
 * redelivered; keyed reviews keep one row each, so a client's retry in another message counts once.
 */
class ConsumerLedgerIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private Fixture f;
  private AlbumStoreConsumer consumer;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
  }

  @AfterEach
  void tearDown() throws Exception {
    if (consumer != null) {
      consumer.close();
    }
    f.close();
  }

  private static Review unkeyed(String albumId, Vote vote) {
    return new Review(UUID.randomUUID(), albumId, vote, false);
  }

  private static Review keyed(UUID eventId, String albumId, Vote vote) {
    return new Review(eventId, albumId, vote, true);
  }

  private static WriteBundle message(List<Review> reviews) {
    return new WriteBundle(1, System.currentTimeMillis(), UUID.randomUUID(), List.of(), reviews);
  }

  /** Version 2: the same unkeyed reviews as counts per album. */
  private static WriteBundle counted(List<Review> reviews) {
    Map<String, int[]> perAlbum = new TreeMap<>();
    for (Review r : reviews) {
      perAlbum.computeIfAbsent(r.albumId(), k -> new int[2])[r.vote() == Vote.LIKE ? 0 : 1]++;
    }
    List<AlbumVotes> votes = new ArrayList<>();
    perAlbum.forEach((album, c) -> votes.add(new AlbumVotes(album, c[0], c[1])));
    return new WriteBundle(
        2, System.currentTimeMillis(), UUID.randomUUID(), List.of(), List.of(), votes);
  }

  /** Rows of the ledger among {@code ids}. */
  private long ledgerRows(Collection<UUID> ids) throws Exception {
    try (var c = f.reads().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM applied_reviews WHERE event_id = ANY(?)")) {
      ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * A consumer that committed 50 messages of 10 unkeyed reviews each and died before acknowledging
   * them: the redelivered messages change nothing, and the ledger holds 50 rows, not 500. Every
   * other message is version 2, its reviews counted per album (votes), as a server writes them now;
   * the others are version 1, one review at a time, as a server before it did.
   */
  @Test
  void unkeyedReviewsAppliedButNotAcknowledgedTakeOneLedgerRowPerMessageAndCountOnce()
      throws Exception {
    List<WriteBundle> messages = new ArrayList<>();
    List<UUID> messageIds = new ArrayList<>();
    List<UUID> reviewIds = new ArrayList<>();
    for (int m = 0; m < 50; m++) {
      List<Review> reviews = new ArrayList<>();
      for (int r = 0; r < 10; r++) {
        Review review = unkeyed(f.album(r % 4), r % 2 == 0 ? Vote.LIKE : Vote.DISLIKE);
        reviews.add(review);
        reviewIds.add(review.eventId());
      }
      WriteBundle b = m % 2 == 0 ? message(reviews) : counted(reviews);
      messages.add(b);
      messageIds.add(b.id());
    }
    f.publishAll(messages);

    // The "crashing consumer": takes all 50 without acknowledging, commits them, closes.
    try (Connection c = AmqpConnections.open(f.amqp, "it-crashing-consumer")) {
      Channel ch = c.createChannel();
      List<WriteBundle> taken = new ArrayList<>();
      for (int n = 0; n < 50; n++) {
        GetResponse r = ch.basicGet(f.amqp.queue(), false);
        assertThat(r).as("message " + n).isNotNull();
        assertThat(r.getProps().getMessageId()).isEqualTo(messages.get(n).id().toString());
        taken.add(EventCodec.decode(r.getBody()));
      }
      new BatchWriter(f.reads()).write(Aggregate.of(taken));
      ch.close(); // no ack: all 50 go back to the queue, flagged redelivered
    }
    assertThat(f.totalReviews()).isEqualTo(500);
    await("requeued", WAIT, () -> f.ready() == 50);

    consumer = AlbumStoreConsumer.start(Fixture.settings(1, 2, 20, 10), f.amqp, f.db);
    await("redeliveries applied", WAIT, () -> consumer.counters().messagesApplied() == 50);

    assertThat(f.totalReviews()).isEqualTo(500);
    // Albums 0 and 2 got the likes (r even), 1 and 3 the dislikes: 50 messages x 3, 3, 2, 2.
    assertThat(f.counts(f.album(0))).containsExactly(150, 0);
    assertThat(f.counts(f.album(1))).containsExactly(0, 150);
    assertThat(f.counts(f.album(2))).containsExactly(100, 0);
    assertThat(f.counts(f.album(3))).containsExactly(0, 100);
    assertThat(consumer.counters().reviewsApplied()).isZero();
    assertThat(ledgerRows(messageIds)).isEqualTo(50);
    assertThat(ledgerRows(reviewIds)).isZero();
    await("acknowledged", WAIT, () -> f.ready() == 0);
  }

  /**
   * A client retrying a keyed review after a 503 sends the same event ID again, in another message
   * with another message ID: it counts once. The unkeyed reviews beside it are separate writes and
   * each counts.
   */
  @Test
  void aKeyedReviewRetriedInAnotherMessageCountsOnceBesideUnkeyedOnes() throws Exception {
    String a = f.album(0);
    UUID retried = UUID.randomUUID();
    WriteBundle first = message(List.of(keyed(retried, a, Vote.LIKE), unkeyed(a, Vote.DISLIKE)));
    WriteBundle retry = message(List.of(unkeyed(a, Vote.DISLIKE), keyed(retried, a, Vote.LIKE)));
    f.publish(first);

    consumer = AlbumStoreConsumer.start(Fixture.settings(1, 1, 10, 10), f.amqp, f.db);
    await("first applied", WAIT, () -> consumer.counters().messagesApplied() == 1);
    f.publish(retry);
    await("retry applied", WAIT, () -> consumer.counters().messagesApplied() == 2);

    assertThat(f.counts(a)).containsExactly(1, 2);
    assertThat(ledgerRows(List.of(retried, first.id(), retry.id()))).isEqualTo(3);
    assertThat(consumer.counters().reviewsApplied()).isEqualTo(3);
  }

  /** The same message twice, in one batch and then alone: its unkeyed reviews count once. */
  @Test
  void theSameMessagePublishedThreeTimesCountsItsUnkeyedReviewsOnce() throws Exception {
    String a = f.album(0);
    WriteBundle once =
        message(List.of(unkeyed(a, Vote.LIKE), unkeyed(a, Vote.LIKE), unkeyed(a, Vote.DISLIKE)));
    byte[] body = EventCodec.encode(once);
    AMQP.BasicProperties props = EventCodec.properties(once);
    f.publish(body, props);
    f.publish(body, props); // likely in the same batch as the first

    consumer = AlbumStoreConsumer.start(Fixture.settings(1, 1, 100, 50), f.amqp, f.db);
    await("both copies applied", WAIT, () -> consumer.counters().messagesApplied() == 2);
    assertThat(f.counts(a)).containsExactly(2, 1);

    f.publish(body, props); // and once more, surely in a batch of its own
    await("third copy applied", WAIT, () -> consumer.counters().messagesApplied() == 3);
    assertThat(f.counts(a)).containsExactly(2, 1);
    assertThat(consumer.counters().reviewsApplied()).isEqualTo(3);
    assertThat(ledgerRows(List.of(once.id()))).isEqualTo(1);
  }

  /**
   * The default batching (no partial-batch wait: a free worker commits what has arrived): lone
   * messages trickling in are each committed in a transaction of their own as soon as they come;
   * then a backlog of fresh messages, copies of them, and messages a crashed consumer had committed
   * without acknowledging (redelivered) is applied with every review counted exactly once.
   */
  @Test
  void batchesCutWhenTheWorkerIsFreeApplyEveryWriteOnceUnderRedelivery() throws Exception {
    String a = f.album(0);
    String b = f.album(1);
    consumer = AlbumStoreConsumer.start(defaultBatching(2, 2, 100, 50), f.amqp, f.db);
    for (int n = 1; n <= 10; n++) {
      f.publish(message(List.of(unkeyed(a, Vote.LIKE))));
      long applied = n;
      await("lone message " + n, WAIT, () -> consumer.counters().messagesApplied() == applied);
    }
    assertThat(consumer.counters().transactions())
        .as("one transaction per lone message")
        .isEqualTo(10);
    consumer.close();
    consumer = null;

    List<WriteBundle> fresh = new ArrayList<>();
    for (int m = 0; m < 60; m++) {
      fresh.add(m % 2 == 0 ? message(likes(b, 3)) : counted(likes(b, 3)));
    }
    f.publishAll(fresh);
    f.publishAll(fresh.subList(0, 20)); // copies: the same message IDs again
    // A consumer takes the first 30, commits them and dies before acknowledging.
    try (Connection c = AmqpConnections.open(f.amqp, "it-crashing-consumer")) {
      Channel ch = c.createChannel();
      List<WriteBundle> taken = new ArrayList<>();
      for (int n = 0; n < 30; n++) {
        GetResponse r = ch.basicGet(f.amqp.queue(), false);
        assertThat(r).as("message " + n).isNotNull();
        taken.add(EventCodec.decode(r.getBody()));
      }
      new BatchWriter(f.reads()).write(Aggregate.of(taken));
      ch.close();
    }
    assertThat(f.counts(b)).containsExactly(90, 0);

    consumer = AlbumStoreConsumer.start(defaultBatching(2, 2, 100, 50), f.amqp, f.db);
    await("backlog applied", WAIT, () -> consumer.counters().messagesApplied() == 80);
    await("acknowledged", WAIT, () -> f.ready() == 0);

    assertThat(f.counts(a)).containsExactly(10, 0);
    assertThat(f.counts(b)).containsExactly(180, 0);
    assertThat(consumer.counters().redelivered()).isEqualTo(30);
    assertThat(consumer.counters().reviewsApplied())
        .as("only the 30 messages never applied")
        .isEqualTo(90);
    assertThat(ledgerRows(fresh.stream().map(WriteBundle::id).toList())).isEqualTo(60);
  }

  private static List<Review> likes(String albumId, int n) {
    List<Review> reviews = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      reviews.add(unkeyed(albumId, Vote.LIKE));
    }
    return reviews;
  }

  /** As {@link Fixture#settings}, with the default batch wait (none) instead of the fixture's. */
  private static ConsumerSettings defaultBatching(
      int connections, int channels, int prefetch, int batch) {
    ConsumerSettings s = Fixture.settings(connections, channels, prefetch, batch);
    return new ConsumerSettings(
        s.connections(),
        s.channelsPerConnection(),
        s.prefetch(),
        s.batchSize(),
        ConsumerSettings.BATCH_WAIT_MS.defaultValue(),
        ConsumerSettings.BACKLOG_WAIT_MS.defaultValue(),
        s.dbPoolSize(),
        s.initSchema(),
        s.statsIntervalSeconds());
  }
}
