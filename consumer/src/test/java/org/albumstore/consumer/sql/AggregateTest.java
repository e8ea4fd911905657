package org.albumstore.consumer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;
import org.junit.jupiter.api.Test;

class AggregateTest {
  private static final AlbumProfile PROFILE = new AlbumProfile("Artist", "Title", "1977");

  private static Review like(String album) {
    return new Review(UUID.randomUUID(), album, Vote.LIKE);
  }

  private static Review dislike(String album) {
    return new Review(UUID.randomUUID(), album, Vote.DISLIKE);
  }

  private static List<UUID> ids(List<Review> reviews) {
    return reviews.stream().map(Review::eventId).toList();
  }

  /**
   * The reviews the batch holds, a message sent twice counted once: what its counter deltas add up
   * to when the ledger has seen none of it.
   */
  private static long reviewCount(Aggregate a) {
    return a.deltasFor(a.ledgerIds()).stream().mapToLong(d -> d.likes() + d.dislikes()).sum();
  }

  @Test
  void deltasAreSummedPerAlbumAcrossMessages() {
    List<Review> first = List.of(like("b"), like("a"), dislike("b"));
    List<Review> second = List.of(like("b"), dislike("a"), dislike("a"));
    Aggregate a = Aggregate.of(List.of(Bundles.reviews(first), Bundles.reviews(second)));

    List<Review> all = new ArrayList<>(first);
    all.addAll(second);
    assertThat(a.deltasFor(ids(all)))
        .containsExactly(new AlbumDelta("a", 1, 2, null), new AlbumDelta("b", 2, 1, null));
    assertThat(a.messageCount()).isEqualTo(2);
    assertThat(reviewCount(a)).isEqualTo(6);
  }

  @Test
  void onlyReviewsWhoseEventIdIsNewCount() {
    Review seenBefore = like("a");
    Review fresh1 = like("a");
    Review fresh2 = dislike("c");
    Aggregate a = Aggregate.of(List.of(Bundles.reviews(List.of(seenBefore, fresh1, fresh2))));

    assertThat(a.deltasFor(List.of(fresh1.eventId(), fresh2.eventId())))
        .containsExactly(new AlbumDelta("a", 1, 0, null), new AlbumDelta("c", 0, 1, null));
    assertThat(a.deltasFor(List.of())).isEmpty();
  }

  @Test
  void eventIdsNotInTheBatchOrListedTwiceCountOnceOrNotAtAll() {
    Review r = like("a");
    Aggregate a = Aggregate.of(List.of(Bundles.reviews(List.of(r))));

    assertThat(a.deltasFor(List.of(r.eventId(), r.eventId(), UUID.randomUUID())))
        .containsExactly(new AlbumDelta("a", 1, 0, null));
  }

  @Test
  void theSameMessageTwiceInOneBatchIsCountedOnce() {
    WriteBundle m =
        new WriteBundle(
            EventCodec.VERSION,
            1L,
            List.of(new NewAlbum("x", PROFILE, new byte[] {1})),
            List.of(like("x"), dislike("x")));
    Aggregate a = Aggregate.of(List.of(m, m));

    assertThat(a.albums()).hasSize(1);
    assertThat(a.ledgerIds()).hasSize(2);
    assertThat(a.deltasFor(a.ledgerIds())).containsExactly(new AlbumDelta("x", 1, 1, null));
  }

  @Test
  void albumsAreDistinctAndSortedByIdFirstOneWins() {
    NewAlbum c = new NewAlbum("c", PROFILE, new byte[] {1});
    NewAlbum a = new NewAlbum("a", PROFILE, new byte[] {2});
    NewAlbum aAgain = new NewAlbum("a", new AlbumProfile("Other", "Other", "2000"), new byte[] {3});
    NewAlbum b = new NewAlbum("B", PROFILE, new byte[] {4});
    Aggregate agg =
        Aggregate.of(
            List.of(
                new WriteBundle(EventCodec.VERSION, 1L, List.of(c, a), List.of()),
                new WriteBundle(EventCodec.VERSION, 2L, List.of(aAgain, b), List.of())));

    assertThat(agg.albums()).containsExactly(b, a, c); // "B" < "a" < "c": one fixed order
  }

  @Test
  void eventIdsAreSortedAsPostgresOrdersUuidsUnsigned() {
    UUID low = UUID.fromString("00000000-0000-0000-0000-000000000001");
    UUID mid = UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff");
    // Negative as a signed long: UUID.compareTo would put it first; PostgreSQL puts it last.
    UUID high = UUID.fromString("ffffffff-0000-0000-0000-000000000000");
    List<Review> reviews =
        List.of(
            new Review(high, "a", Vote.LIKE),
            new Review(low, "a", Vote.LIKE),
            new Review(mid, "a", Vote.LIKE));
    Aggregate a = Aggregate.of(List.of(Bundles.reviews(reviews)));

    assertThat(a.ledgerIds()).containsExactly(low, mid, high);
    assertThat(high.compareTo(low)).isNegative(); // why the custom order is needed
  }

  @Test
  void deltasAreSortedByAlbumIdWhateverTheArrivalOrder() {
    List<Review> reviews = List.of(like("z"), like("m"), like("A"), like("0"), like("m"));
    Aggregate a = Aggregate.of(List.of(Bundles.reviews(reviews)));

    assertThat(a.deltasFor(Set.copyOf(ids(reviews))))
        .extracting(AlbumDelta::albumId)
        .containsExactly("0", "A", "m", "z");
  }

  private static Review unkeyed(String album, Vote vote) {
    return new Review(UUID.randomUUID(), album, vote, false);
  }

  @Test
  void unkeyedReviewsOfAMessageWithAnIdShareItsLedgerIdKeyedOnesKeepTheirOwn() {
    UUID messageId = UUID.randomUUID();
    Review keyed = like("k");
    WriteBundle m =
        new WriteBundle(
            EventCodec.VERSION,
            1L,
            messageId,
            List.of(),
            List.of(
                unkeyed("a", Vote.LIKE),
                keyed,
                unkeyed("a", Vote.DISLIKE),
                unkeyed("b", Vote.LIKE)));
    Aggregate a = Aggregate.of(List.of(m));

    assertThat(a.ledgerIds()).containsExactlyInAnyOrder(messageId, keyed.eventId());
    assertThat(reviewCount(a)).isEqualTo(4);
    assertThat(a.deltasFor(List.of(messageId)))
        .containsExactly(new AlbumDelta("a", 1, 1, null), new AlbumDelta("b", 1, 0, null));
    assertThat(a.deltasFor(List.of(keyed.eventId())))
        .containsExactly(new AlbumDelta("k", 1, 0, null));
    assertThat(a.deltasFor(a.ledgerIds()))
        .containsExactly(
            new AlbumDelta("a", 1, 1, null),
            new AlbumDelta("b", 1, 0, null),
            new AlbumDelta("k", 1, 0, null));
  }

  @Test
  void theSameMessageWithAnIdTwiceInOneBatchCountsItsUnkeyedReviewsOnce() {
    WriteBundle m =
        new WriteBundle(
            EventCodec.VERSION,
            1L,
            UUID.randomUUID(),
            List.of(),
            List.of(unkeyed("x", Vote.LIKE), unkeyed("x", Vote.DISLIKE)));
    Aggregate a = Aggregate.of(List.of(m, m));

    assertThat(a.ledgerIds()).containsExactly(m.id());
    assertThat(reviewCount(a)).isEqualTo(2);
    assertThat(a.deltasFor(a.ledgerIds())).containsExactly(new AlbumDelta("x", 1, 1, null));
  }

  @Test
  void reviewsOfAMessageWithoutAnIdAreRecordedByEventIdEvenWhenMarkedUnkeyed() {
    Review r = unkeyed("x", Vote.LIKE);
    Aggregate a = Aggregate.of(List.of(Bundles.reviews(List.of(r))));

    assertThat(a.ledgerIds()).containsExactly(r.eventId());
  }

  @Test
  void votesCountUnderTheirMessageIdOnceWithTheUnkeyedReviewsOfOlderMessages() {
    Review keyed = like("k");
    WriteBundle v2 =
        new WriteBundle(
            2,
            1L,
            UUID.randomUUID(),
            List.of(),
            List.of(keyed),
            List.of(new AlbumVotes("a", 3, 1), new AlbumVotes("b", 0, 2)));
    // A version 1 message of a server not yet upgraded, in the same batch.
    WriteBundle v1 =
        new WriteBundle(1, 1L, UUID.randomUUID(), List.of(), List.of(unkeyed("a", Vote.LIKE)));
    // The version 2 message twice: a redelivery racing a recovery.
    Aggregate a = Aggregate.of(List.of(v2, v1, v2));

    assertThat(a.ledgerIds()).containsExactlyInAnyOrder(v2.id(), v1.id(), keyed.eventId());
    assertThat(reviewCount(a)).isEqualTo(8);
    assertThat(a.deltasFor(List.of(v2.id())))
        .containsExactly(new AlbumDelta("a", 3, 1, null), new AlbumDelta("b", 0, 2, null));
    assertThat(a.deltasFor(a.ledgerIds()))
        .containsExactly(
            new AlbumDelta("a", 4, 1, null),
            new AlbumDelta("b", 0, 2, null),
            new AlbumDelta("k", 1, 0, null));
    // A redelivered message whose ID the ledger already holds changes nothing.
    assertThat(a.deltasFor(List.of(v1.id(), keyed.eventId())))
        .containsExactly(new AlbumDelta("a", 1, 0, null), new AlbumDelta("k", 1, 0, null));
  }

  @Test
  void reviewTimesMoveOnlyWithTheReviewsTheLedgerHadNotSeen() {
    Review keyed = like("k");
    WriteBundle early =
        new WriteBundle(
            3,
            1L,
            UUID.randomUUID(),
            List.of(),
            List.of(keyed),
            List.of(new AlbumVotes("a", 1, 0)),
            Map.of("a", 100L, "k", 150L));
    WriteBundle late =
        new WriteBundle(
            3,
            2L,
            UUID.randomUUID(),
            List.of(),
            List.of(),
            List.of(new AlbumVotes("a", 0, 1)),
            Map.of("a", 200L));
    // A version 2 message beside them: its reviews count, and carry no time.
    WriteBundle v2 =
        new WriteBundle(
            2, 3L, UUID.randomUUID(), List.of(), List.of(), List.of(new AlbumVotes("b", 1, 0)));
    Aggregate a = Aggregate.of(List.of(early, late, v2));

    assertThat(a.deltasFor(a.ledgerIds()))
        .containsExactly(
            new AlbumDelta("a", 1, 1, 200L),
            new AlbumDelta("b", 1, 0, null),
            new AlbumDelta("k", 1, 0, 150L));
    // The later message applied before (a redelivery): the earlier one's time is all that moves.
    assertThat(a.deltasFor(List.of(early.id(), keyed.eventId())))
        .containsExactly(new AlbumDelta("a", 1, 0, 100L), new AlbumDelta("k", 1, 0, 150L));
  }

  @Test
  void messageIdsAndEventIdsShareOneLedgerOrder() {
    UUID low = UUID.fromString("00000000-0000-0000-0000-000000000001");
    UUID high = UUID.fromString("ffffffff-0000-0000-0000-000000000000");
    UUID mid = UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff");
    WriteBundle m =
        new WriteBundle(
            EventCodec.VERSION,
            1L,
            mid,
            List.of(),
            List.of(
                new Review(high, "a", Vote.LIKE),
                unkeyed("a", Vote.LIKE),
                new Review(low, "a", Vote.LIKE)));

    assertThat(Aggregate.of(List.of(m)).ledgerIds()).containsExactly(low, mid, high);
  }
}
