package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.albumstore.consumer.Fixture.review;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.consumer.sql.Aggregate;
import org.albumstore.consumer.sql.BatchWriter;
import org.albumstore.embedded.testing.Bundles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Against the real broker and database: what is published ends up in the tables, once. */
class ConsumerApplyIT {
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

  private static WriteBundle batch(List<NewAlbum> albums, List<Review> reviews) {
    return new WriteBundle(EventCodec.VERSION, System.currentTimeMillis(), albums, reviews);
  }

  @Test
  void albumsAreStoredWithImageAndSizeAndReviewsCounted() throws Exception {
    byte[] image = new byte[3475];
    for (int i = 0; i < image.length; i++) {
      image[i] = (byte) (i * 31);
    }
    String a0 = f.album(0);
    String a1 = f.album(1);
    String numbered = f.album(42); // reviewed but never created: allowed by the contract
    AlbumProfile profile = new AlbumProfile("Sex Pistols", "Never Mind The Bollocks!", "1977");
    f.publish(
        batch(
            List.of(new NewAlbum(a0, profile, image), new NewAlbum(a1, profile, new byte[] {7})),
            List.of(review(a0, Vote.LIKE), review(a0, Vote.LIKE), review(a1, Vote.DISLIKE))));
    f.publish(
        Bundles.reviews(
            List.of(
                review(a0, Vote.LIKE),
                review(a0, Vote.DISLIKE),
                review(a1, Vote.DISLIKE),
                review(numbered, Vote.LIKE))));

    consumer = AlbumStoreConsumer.start(Fixture.settings(1, 1, 100, 50), f.amqp, f.db);
    await("7 reviews applied", WAIT, () -> f.totalReviews() == 7);

    assertThat(f.counts(a0)).containsExactly(3, 1);
    assertThat(f.counts(a1)).containsExactly(0, 2);
    assertThat(f.counts(numbered)).containsExactly(1, 0);
    try (var c = f.reads().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT artist, title, year, image, image_size FROM albums WHERE album_id = ?")) {
      ps.setString(1, a0);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("artist")).isEqualTo("Sex Pistols");
        assertThat(rs.getString("title")).isEqualTo("Never Mind The Bollocks!");
        assertThat(rs.getString("year")).isEqualTo("1977");
        assertThat(rs.getBytes("image")).isEqualTo(image);
        assertThat(rs.getInt("image_size")).isEqualTo(3475);
      }
    }
    await("acknowledged", WAIT, () -> f.ready() == 0);
    ConsumerCounters n = consumer.counters();
    assertThat(n.messagesApplied()).isEqualTo(2);
    assertThat(n.reviewsApplied()).isEqualTo(7);
    assertThat(n.albumsInserted()).isEqualTo(2);
    assertThat(n.deadLettered()).isZero();
  }

  @Test
  void theSameMessagePublishedTwiceChangesNothingTwice() throws Exception {
    String a = f.album(0);
    WriteBundle once =
        batch(
            List.of(new NewAlbum(a, new AlbumProfile("A", "T", "2001"), new byte[] {1, 2, 3})),
            List.of(review(a, Vote.LIKE), review(a, Vote.LIKE), review(a, Vote.DISLIKE)));
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
    assertThat(f.albumRows()).isEqualTo(1);
    assertThat(consumer.counters().reviewsApplied()).isEqualTo(3);
    assertThat(consumer.counters().albumsInserted()).isEqualTo(1);
  }

  @Test
  void thousandReviewsOverTenAlbumsWithTwoConnectionsTimesTwoChannelsEndExact() throws Exception {
    long[][] expected = new long[10][2];
    List<WriteBundle> messages = new ArrayList<>();
    for (int n = 0; n < 1000; n++) {
      int album = n % 10;
      Vote vote = n % 3 == 0 ? Vote.DISLIKE : Vote.LIKE;
      expected[album][vote == Vote.LIKE ? 0 : 1]++;
      messages.add(Bundles.reviews(List.of(review(f.album(album), vote))));
    }
    f.publishAll(messages);

    // Small prefetch and batches: many concurrent transactions on the same ten counter rows.
    consumer = AlbumStoreConsumer.start(Fixture.settings(2, 2, 40, 20), f.amqp, f.db);
    await("1000 reviews applied", WAIT, () -> f.totalReviews() == 1000);
    await("queue drained", WAIT, () -> f.ready() == 0);

    for (int album = 0; album < 10; album++) {
      assertThat(f.counts(f.album(album))).as("album " + album).containsExactly(expected[album]);
    }
    assertThat(consumer.counters().reviewsApplied()).isEqualTo(1000);
    assertThat(consumer.counters().messagesApplied()).isEqualTo(1000);
    assertThat(consumer.counters().transactions()).isGreaterThan(1).isLessThan(1000);
  }

  /**
   * The workers consume with distinct priorities, so a burst that the first one has room for goes
   * to it alone and is applied in one transaction. Delivered round-robin, the four workers of 2×2
   * would each have received a share and committed it in a transaction of its own.
   */
  @Test
  void aBurstTheFirstWorkerHasRoomForIsAppliedInOneTransaction() throws Exception {
    burstInOneTransaction(f);
  }

  @Test
  void aBurstOnAQuorumQueueIsAppliedInOneTransactionToo(TestInfo info) throws Exception {
    try (Fixture q =
        Fixture.create(info.getTestMethod().orElseThrow().getName(), QueueType.QUORUM)) {
      burstInOneTransaction(q);
    }
  }

  private static void burstInOneTransaction(Fixture fixture) throws Exception {
    int burst = 40;
    // A batch waits up to 2 s for more: the whole burst arrives well within that.
    ConsumerSettings settings = new ConsumerSettings(2, 2, 1000, 500, 2000, 0, 4, false, 3600);
    try (AlbumStoreConsumer c = AlbumStoreConsumer.start(settings, fixture.amqp, fixture.db)) {
      fixture.publishLikes(burst, 4, burst);
      await(burst + " likes applied", WAIT, () -> fixture.totalReviews() == burst);
      // The counters move just after the commit that made the likes visible, messages first.
      await(
          burst + " messages counted",
          WAIT,
          () -> c.counters().messagesApplied() == burst && c.counters().transactions() >= 1);
      assertThat(c.counters().transactions()).as("transactions for the burst").isEqualTo(1);
    }
  }

  @Test
  void aQuorumQueueWorksTheSame(TestInfo info) throws Exception {
    try (Fixture q =
        Fixture.create(info.getTestMethod().orElseThrow().getName(), QueueType.QUORUM)) {
      String a = q.album(0);
      q.publish(
          batch(
              List.of(new NewAlbum(a, new AlbumProfile("Q", "Quorum", "2020"), new byte[] {9})),
              List.of(review(a, Vote.LIKE))));
      q.publishLikes(199, 1, 100);
      try (AlbumStoreConsumer c =
          AlbumStoreConsumer.start(Fixture.settings(1, 2, 50, 25), q.amqp, q.db)) {
        await("200 likes applied", WAIT, () -> q.totalReviews() == 200);
        await("queue drained", WAIT, () -> q.ready() == 0);
        assertThat(q.counts(a)).containsExactly(200, 0);
        assertThat(q.albumRows()).isEqualTo(1);
        assertThat(c.counters().reviewsApplied()).isEqualTo(200);
      }
    }
  }

  /**
   * A consumer that committed a batch and died before acknowledging it: the broker redelivers the
   * batch, and applying it again must change nothing.
   */
  @Test
  void messagesAppliedButNotAcknowledgedAreNotCountedAgainWhenRedelivered() throws Exception {
    List<WriteBundle> messages = new ArrayList<>();
    for (int n = 0; n < 100; n++) {
      messages.add(Bundles.reviews(List.of(review(f.album(n % 4), Vote.LIKE))));
    }
    f.publishAll(messages);

    // The "crashing consumer": takes all 100 without acknowledging, commits them, closes.
    try (Connection c = AmqpConnections.open(f.amqp, "it-crashing-consumer")) {
      Channel ch = c.createChannel();
      List<WriteBundle> taken = new ArrayList<>();
      for (int n = 0; n < 100; n++) {
        GetResponse r = ch.basicGet(f.amqp.queue(), false);
        assertThat(r).as("message " + n).isNotNull();
        taken.add(EventCodec.decode(r.getBody()));
      }
      new BatchWriter(f.reads()).write(Aggregate.of(taken));
      ch.close(); // no ack: all 100 go back to the queue, flagged redelivered
    }
    assertThat(f.totalReviews()).isEqualTo(100);
    await("requeued", WAIT, () -> f.ready() == 100);

    consumer = AlbumStoreConsumer.start(Fixture.settings(1, 2, 50, 25), f.amqp, f.db);
    await("redeliveries applied", WAIT, () -> consumer.counters().messagesApplied() == 100);

    assertThat(f.totalReviews()).isEqualTo(100);
    for (int album = 0; album < 4; album++) {
      assertThat(f.counts(f.album(album))).containsExactly(25, 0);
    }
    assertThat(consumer.counters().redelivered()).isEqualTo(100);
    assertThat(consumer.counters().reviewsApplied()).isZero();
    await("acknowledged", WAIT, () -> f.ready() == 0);
  }
}
