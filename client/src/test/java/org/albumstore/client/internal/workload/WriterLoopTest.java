package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.albumstore.client.internal.http.AlbumStoreApi;
import org.albumstore.client.internal.http.IdempotencyKeys;
import org.albumstore.client.internal.http.ReviewCounts;
import org.albumstore.client.internal.verify.AcknowledgedSegment;
import org.albumstore.client.internal.verify.ExpectedCounts;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;

class WriterLoopTest {
  /** Creates albums "album-<n>", fails creation of every third, fails every second dislike. */
  private static final class FakeApi implements AlbumStoreApi {
    final List<String> calls = new ArrayList<>();
    int albums;
    int dislikes;

    @Override
    public Optional<String> createAlbum(String key, long dueNanos) {
      calls.add("POST /albums " + key);
      albums++;
      return albums % 3 == 0 ? Optional.empty() : Optional.of("album-" + albums);
    }

    @Override
    public boolean review(Vote vote, String albumId, String key, long dueNanos) {
      calls.add("POST /review/" + vote.name().toLowerCase() + "/" + albumId + " " + key);
      return vote == Vote.LIKE || ++dislikes % 2 == 1;
    }

    @Override
    public ReviewCounts getReview(String albumId, long dueNanos) {
      calls.add("GET /review/" + albumId); // only when reading back
      return ReviewCounts.found(0, 0);
    }

    @Override
    public boolean getAlbum(String albumId, long dueNanos) {
      calls.add("GET /albums/" + albumId);
      return true;
    }
  }

  @Test
  void eachIterationCreatesAnAlbumThenLikesItTwiceAndDislikesItOnce() {
    FakeApi api = new FakeApi();
    AcknowledgedSegment acknowledged = new AcknowledgedSegment();
    RecentAlbums recent = new RecentAlbums(16);
    new WriterLoop(
            api,
            new WriterJob(
                Workload.ALBUM_REVIEWS,
                Pacer.UNPACED,
                new IdempotencyKeys("run1"),
                "t7",
                3,
                acknowledged,
                recent,
                () -> false,
                false))
        .run();

    assertThat(api.calls)
        .containsExactly(
            "POST /albums run1-t7-0-a",
            "POST /review/like/album-1 run1-t7-0-l1",
            "POST /review/like/album-1 run1-t7-0-l2",
            "POST /review/dislike/album-1 run1-t7-0-d",
            "POST /albums run1-t7-1-a",
            "POST /review/like/album-2 run1-t7-1-l1",
            "POST /review/like/album-2 run1-t7-1-l2",
            "POST /review/dislike/album-2 run1-t7-1-d",
            "POST /albums run1-t7-2-a"); // album 3 failed: nothing to review
    assertThat(api.calls)
        .allSatisfy(
            c ->
                assertThat(Identifiers.isValidToken(c.substring(c.lastIndexOf(' ') + 1))).isTrue());
    assertThat(acknowledged.size()).isEqualTo(2);
    assertThat(acknowledged.expected(0)).isEqualTo(new ExpectedCounts("album-1", 2, 0, 1, 0));
    assertThat(acknowledged.expected(1)).isEqualTo(new ExpectedCounts("album-2", 2, 0, 0, 1));
    assertThat(recent.pick()).isIn("album-1", "album-2");
  }

  @Test
  void aWriterReadingBackReadsItsAlbumAfterThe200AndItsCountsAfterEachReview() {
    FakeApi api = new FakeApi();
    new WriterLoop(
            api,
            new WriterJob(
                Workload.ALBUM_REVIEWS,
                Pacer.UNPACED,
                new IdempotencyKeys("run1"),
                "t7",
                1,
                new AcknowledgedSegment(),
                new RecentAlbums(16),
                () -> false,
                false))
        .readingBack()
        .run();

    assertThat(api.calls)
        .containsExactly(
            "POST /albums run1-t7-0-a",
            "GET /albums/album-1",
            "POST /review/like/album-1 run1-t7-0-l1",
            "GET /review/album-1",
            "POST /review/like/album-1 run1-t7-0-l2",
            "GET /review/album-1",
            "POST /review/dislike/album-1 run1-t7-0-d",
            "GET /review/album-1");
  }

  @Test
  void aStoppedLoopEndsBeforeItsNextIteration() {
    FakeApi api = new FakeApi();
    new WriterLoop(
            api,
            new WriterJob(
                Workload.ALBUM_REVIEWS,
                Pacer.UNPACED,
                new IdempotencyKeys("run1"),
                "t0",
                100,
                new AcknowledgedSegment(),
                new RecentAlbums(4),
                () -> api.calls.size() >= 4,
                false))
        .run();
    assertThat(api.calls).hasSize(4);
  }

  @Test
  void postGetIterationsCreateAnAlbumThenReadThatAlbumAtOnce() {
    FakeApi api = new FakeApi();
    AcknowledgedSegment acknowledged = new AcknowledgedSegment();
    RecentAlbums recent = new RecentAlbums(16);
    new WriterLoop(
            api,
            new WriterJob(
                Workload.POST_GET,
                Pacer.UNPACED,
                new IdempotencyKeys("run1"),
                "t3",
                4,
                acknowledged,
                recent,
                () -> false,
                false))
        .run();

    assertThat(api.calls)
        .containsExactly(
            "POST /albums run1-t3-0-a",
            "GET /albums/album-1",
            "POST /albums run1-t3-1-a",
            "GET /albums/album-2",
            "POST /albums run1-t3-2-a", // album 3 failed: nothing to read
            "POST /albums run1-t3-3-a",
            "GET /albums/album-4");
    // Verified as albums without reviews.
    assertThat(acknowledged.size()).isEqualTo(3);
    assertThat(acknowledged.expected(0)).isEqualTo(new ExpectedCounts("album-1", 0, 0, 0, 0));
    assertThat(acknowledged.expected(2)).isEqualTo(new ExpectedCounts("album-4", 0, 0, 0, 0));
  }
}
