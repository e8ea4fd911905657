package org.albumstore.server.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The byte estimate must never be below what a write really adds to a message body. */
class PendingWriteTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 100, 3475, 65_537})
  void anAlbumsEstimateCoversItsEncodedSize(int imageBytes) {
    NewAlbum a =
        new NewAlbum(
            "x".repeat(64),
            new AlbumProfile("Björk 🎵 坂本龍一 \"quoted\"", "t".repeat(255), "1997"),
            new byte[imageBytes]);
    int encodedGrowth =
        body(List.of(a, a2()), List.of()).length - body(List.of(a2()), List.of()).length;
    assertThat(PendingWrite.of(a, 0).estimatedBytes()).isGreaterThanOrEqualTo(encodedGrowth);
  }

  @Test
  void aReviewsEstimateCoversItsEncodedSize() {
    Review r = new Review(UUID.randomUUID(), "y".repeat(64), Vote.DISLIKE);
    Review other = new Review(UUID.randomUUID(), "1", Vote.LIKE);
    int encodedGrowth =
        body(List.of(), List.of(other, r)).length - body(List.of(), List.of(other)).length;
    assertThat(PendingWrite.of(r, 0).estimatedBytes()).isGreaterThanOrEqualTo(encodedGrowth);
  }

  @ParameterizedTest
  @ValueSource(ints = {EventCodec.OLDEST_VERSION, EventCodec.VERSION})
  void anUnkeyedReviewsEstimateCoversItsEncodedSizeInEitherVersion(int version) {
    // Worst case for version 2: an album of its own in the message's votes.
    PendingWrite other = PendingWrite.of(new Review(null, "1", Vote.LIKE, false), 0);
    PendingWrite r = PendingWrite.of(new Review(null, "y".repeat(64), Vote.DISLIKE, false), 0);
    int encodedGrowth =
        EventCodec.encode(PublisherWorker.toBundle(List.of(other, r), version)).length
            - EventCodec.encode(PublisherWorker.toBundle(List.of(other), version)).length;
    assertThat(r.estimatedBytes()).isGreaterThanOrEqualTo(encodedGrowth);
  }

  @Test
  void dedupKeysSeparateAlbumsFromReviews() {
    UUID id = UUID.randomUUID();
    PendingWrite review = PendingWrite.of(new Review(id, "1", Vote.LIKE), 0);
    PendingWrite album =
        PendingWrite.of(
            new NewAlbum(id.toString(), new AlbumProfile("a", "t", "1"), new byte[1]), 0);
    assertThat(review.dedupKey()).isNotEqualTo(album.dedupKey());
  }

  private static NewAlbum a2() {
    return new NewAlbum("other", new AlbumProfile("a", "t", "1"), new byte[] {1});
  }

  private static byte[] body(List<NewAlbum> albums, List<Review> reviews) {
    return EventCodec.encode(new WriteBundle(EventCodec.VERSION, 0, albums, reviews));
  }
}
