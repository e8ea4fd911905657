package org.albumstore.server.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.junit.jupiter.api.Test;

/** What message a bundle of writes becomes, in each body version. */
class PublisherWorkerTest {
  private static final NewAlbum ALBUM =
      new NewAlbum("a1", new AlbumProfile("artist", "title", "1977"), new byte[] {1});
  private static final Review KEYED = new Review(UUID.randomUUID(), "7", Vote.LIKE, true);

  @Test
  void version2CountsTheUnkeyedReviewsPerAlbumAndKeepsTheKeyedOnesWhole() throws Exception {
    List<PendingWrite> writes =
        List.of(
            unkeyed("7", Vote.LIKE),
            PendingWrite.of(ALBUM, 0),
            unkeyed("9", Vote.DISLIKE),
            PendingWrite.of(KEYED, 0),
            unkeyed("7", Vote.DISLIKE),
            unkeyed("7", Vote.LIKE));

    WriteBundle m = EventCodec.decode(EventCodec.encode(PublisherWorker.toBundle(writes, 2)));

    assertThat(m.version()).isEqualTo(2);
    assertThat(m.id()).isNotNull();
    assertThat(m.albums()).extracting(NewAlbum::albumId).containsExactly("a1");
    assertThat(m.reviews()).containsExactly(KEYED);
    // In the order their albums first appear.
    assertThat(m.votes()).containsExactly(new AlbumVotes("7", 2, 1), new AlbumVotes("9", 0, 1));
    assertThat(m.size()).isEqualTo(writes.size());
  }

  @Test
  void version1SendsEveryReviewWholeAndGivesTheUnkeyedOnesFreshEventIds() throws Exception {
    List<PendingWrite> writes =
        List.of(unkeyed("7", Vote.LIKE), unkeyed("7", Vote.LIKE), PendingWrite.of(KEYED, 0));

    WriteBundle m = EventCodec.decode(EventCodec.encode(PublisherWorker.toBundle(writes, 1)));

    assertThat(m.version()).isEqualTo(1);
    assertThat(m.votes()).isEmpty();
    assertThat(m.reviews()).hasSize(3).contains(KEYED);
    List<Review> unkeyed = m.reviews().stream().filter(r -> !r.keyed()).toList();
    assertThat(unkeyed).hasSize(2).allSatisfy(r -> assertThat(r.albumId()).isEqualTo("7"));
    assertThat(unkeyed).extracting(Review::eventId).doesNotContainNull().doesNotHaveDuplicates();
  }

  @Test
  void version3CarriesEachReviewedAlbumsLatestAcceptTimeAndVersion2None() throws Exception {
    Review keyed7 = new Review(java.util.UUID.randomUUID(), "7", Vote.LIKE, true);
    List<PendingWrite> writes =
        List.of(
            PendingWrite.of(new Review(null, "7", Vote.LIKE, false), 0, 1_000),
            PendingWrite.of(ALBUM, 0),
            PendingWrite.of(keyed7, 0, 3_000),
            PendingWrite.of(new Review(null, "9", Vote.DISLIKE, false), 0, 2_000),
            PendingWrite.of(new Review(null, "7", Vote.DISLIKE, false), 0, 1_500));

    WriteBundle v3 = EventCodec.decode(EventCodec.encode(PublisherWorker.toBundle(writes, 3)));
    WriteBundle v2 = EventCodec.decode(EventCodec.encode(PublisherWorker.toBundle(writes, 2)));

    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.reviewedAt()).containsExactly(entry("7", 3_000L), entry("9", 2_000L));
    assertThat(v3.votes()).isEqualTo(v2.votes());
    assertThat(v3.reviews()).isEqualTo(v2.reviews()).containsExactly(keyed7);
    assertThat(v2.reviewedAt()).isEmpty();
  }

  @Test
  void aVersion2BodyIsSmallerPerUnkeyedReview() {
    List<PendingWrite> writes = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      writes.add(unkeyed(Integer.toString(i), i % 2 == 0 ? Vote.LIKE : Vote.DISLIKE));
    }
    int v1 = EventCodec.encode(PublisherWorker.toBundle(writes, 1)).length;
    int v2 = EventCodec.encode(PublisherWorker.toBundle(writes, 2)).length;
    // About 80 bytes a review against about 12: what the broker stores and both ends parse.
    assertThat(v2 * 4).isLessThan(v1);
  }

  private static PendingWrite unkeyed(String albumId, Vote vote) {
    return PendingWrite.of(new Review(null, albumId, vote, false), 0);
  }
}
