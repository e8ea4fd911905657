package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.albumstore.client.internal.http.AsyncAlbumStoreApi;
import org.albumstore.client.internal.http.IdempotencyKeys;
import org.albumstore.client.internal.http.ReviewCounts;
import org.albumstore.client.internal.verify.AcknowledgedSegment;
import org.albumstore.client.internal.verify.ExpectedCounts;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The same iterations as {@link WriterLoopTest}'s, run as a virtual user on a scheduler. */
class VirtualUserTest {
  private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    loop.shutdownNow();
  }

  /** Creates albums "album-<n>", fails creation of every third, fails every second dislike. */
  private class FakeApi implements AsyncAlbumStoreApi {
    final List<String> calls = new CopyOnWriteArrayList<>();
    final List<Long> dues = new CopyOnWriteArrayList<>();
    int albums;
    int dislikes;

    @Override
    public CompletableFuture<Optional<String>> createAlbum(String key, long dueNanos) {
      calls.add("POST /albums " + key);
      dues.add(dueNanos);
      albums++;
      return CompletableFuture.completedFuture(
          albums % 3 == 0 ? Optional.empty() : Optional.of("album-" + albums));
    }

    @Override
    public CompletableFuture<Boolean> review(Vote vote, String albumId, String key, long dueNanos) {
      calls.add("POST /review/" + vote.name().toLowerCase() + "/" + albumId + " " + key);
      dues.add(dueNanos);
      // Answered later, on the loop, as a real transport does.
      boolean ok = vote == Vote.LIKE || ++dislikes % 2 == 1;
      return CompletableFuture.supplyAsync(() -> ok, loop);
    }

    @Override
    public CompletableFuture<Boolean> getAlbum(String albumId, long dueNanos) {
      calls.add("GET /albums/" + albumId);
      dues.add(dueNanos);
      return CompletableFuture.completedFuture(true);
    }

    @Override
    public CompletableFuture<ReviewCounts> getReview(String albumId, long dueNanos) {
      calls.add("GET /review/" + albumId);
      return CompletableFuture.supplyAsync(() -> ReviewCounts.found(0, 0), loop);
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return loop;
    }
  }

  private static VirtualUser user(
      FakeApi api,
      Workload w,
      Pacer pacer,
      String label,
      int iterations,
      AcknowledgedSegment acknowledged) {
    return new VirtualUser(
        api,
        new WriterJob(
            w,
            pacer,
            new IdempotencyKeys("run1"),
            label,
            iterations,
            acknowledged,
            new RecentAlbums(16),
            () -> false,
            false));
  }

  @Test
  void eachIterationCreatesAnAlbumThenLikesItTwiceAndDislikesItOnce() throws Exception {
    FakeApi api = new FakeApi();
    AcknowledgedSegment acknowledged = new AcknowledgedSegment();
    user(api, Workload.ALBUM_REVIEWS, Pacer.UNPACED, "t7", 3, acknowledged)
        .start()
        .get(10, TimeUnit.SECONDS);

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
    assertThat(acknowledged.size()).isEqualTo(2);
    assertThat(acknowledged.expected(0)).isEqualTo(new ExpectedCounts("album-1", 2, 0, 1, 0));
    assertThat(acknowledged.expected(1)).isEqualTo(new ExpectedCounts("album-2", 2, 0, 0, 1));
  }

  @Test
  void theReviewsWorkloadReviewsAnAlbumIdOfItsOwnEachIterationAndCreatesNone() throws Exception {
    FakeApi api = new FakeApi();
    AcknowledgedSegment acknowledged = new AcknowledgedSegment();
    user(api, Workload.REVIEWS, Pacer.UNPACED, "t7", 2, acknowledged)
        .start()
        .get(10, TimeUnit.SECONDS);

    assertThat(api.calls)
        .containsExactly(
            "POST /review/like/run1-t7-0-r run1-t7-0-l1",
            "POST /review/like/run1-t7-0-r run1-t7-0-l2",
            "POST /review/dislike/run1-t7-0-r run1-t7-0-d",
            "POST /review/like/run1-t7-1-r run1-t7-1-l1",
            "POST /review/like/run1-t7-1-r run1-t7-1-l2",
            "POST /review/dislike/run1-t7-1-r run1-t7-1-d");
    assertThat(acknowledged.size()).isEqualTo(2);
    assertThat(acknowledged.expected(0)).isEqualTo(new ExpectedCounts("run1-t7-0-r", 2, 0, 1, 0));
    assertThat(acknowledged.expected(1)).isEqualTo(new ExpectedCounts("run1-t7-1-r", 2, 0, 0, 1));
  }

  @Test
  void aUserReadingBackReadsItsAlbumAfterThe200AndItsCountsAfterEachReview() throws Exception {
    FakeApi api = new FakeApi();
    user(api, Workload.ALBUM_REVIEWS, Pacer.UNPACED, "t7", 1, new AcknowledgedSegment())
        .readingBack()
        .start()
        .get(10, TimeUnit.SECONDS);

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
  void postGetIterationsCreateAnAlbumThenReadThatAlbumAtOnce() throws Exception {
    FakeApi api = new FakeApi();
    AcknowledgedSegment acknowledged = new AcknowledgedSegment();
    user(api, Workload.POST_GET, Pacer.UNPACED, "t3", 4, acknowledged)
        .start()
        .get(10, TimeUnit.SECONDS);

    assertThat(api.calls)
        .containsExactly(
            "POST /albums run1-t3-0-a",
            "GET /albums/album-1",
            "POST /albums run1-t3-1-a",
            "GET /albums/album-2",
            "POST /albums run1-t3-2-a", // album 3 failed: nothing to read
            "POST /albums run1-t3-3-a",
            "GET /albums/album-4");
    assertThat(acknowledged.size()).isEqualTo(3);
    assertThat(acknowledged.expected(2)).isEqualTo(new ExpectedCounts("album-4", 0, 0, 0, 0));
  }

  @Test
  void aStoppedUserEndsBeforeItsNextIteration() throws Exception {
    FakeApi api = new FakeApi();
    new VirtualUser(
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
        .start()
        .get(10, TimeUnit.SECONDS);
    assertThat(api.calls).hasSize(4);
  }

  @Test
  void manyIterationsOfAlreadyCompletedCallsDoNotDeepenTheStack() throws Exception {
    FakeApi api = new FakeApi();
    user(api, Workload.POST_GET, Pacer.UNPACED, "t1", 20_000, new AcknowledgedSegment())
        .start()
        .get(60, TimeUnit.SECONDS);
    assertThat(api.calls.stream().filter(c -> c.startsWith("POST /albums"))).hasSize(20_000);
  }

  @Test
  void inTheOpenModelEachRequestIsDueAtItsSlot() throws Exception {
    FakeApi api = new FakeApi();
    long start = System.nanoTime();
    user(
            api,
            Workload.ALBUM_REVIEWS,
            new FixedRatePacer(1000, start),
            "t0",
            2,
            new AcknowledgedSegment())
        .start()
        .get(10, TimeUnit.SECONDS);
    // 2 iterations: 4 + 4 requests, one slot of 1 ms each, latency counted from the slot.
    assertThat(api.dues).hasSize(8);
    for (int k = 0; k < api.dues.size(); k++) {
      assertThat(api.dues.get(k)).isEqualTo(start + k * 1_000_000L);
    }
  }

  @Test
  void aDefectEndsTheUserExceptionally() {
    FakeApi api =
        new FakeApi() {
          @Override
          public CompletableFuture<Optional<String>> createAlbum(String key, long dueNanos) {
            return CompletableFuture.failedFuture(new IllegalStateException("bug"));
          }
        };
    assertThatThrownBy(
            () ->
                user(api, Workload.ALBUM_REVIEWS, Pacer.UNPACED, "t0", 3, new AcknowledgedSegment())
                    .start()
                    .get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasRootCauseInstanceOf(IllegalStateException.class);
  }
}
