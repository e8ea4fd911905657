package org.albumstore.server.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.CommittedWrites;
import org.albumstore.server.ReadCacheSettings;
import org.junit.jupiter.api.Test;

class ReadCacheTest {
  private static final AlbumProfile PROFILE = new AlbumProfile("a", "t", "1977");

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final ReadCache cache = new ReadCache(new ReadCacheSettings(100, 100, 1000), clock::get);

  private void advanceMs(long ms) {
    clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  private static CommittedWrites counts(String id, long likes, long dislikes) {
    return new CommittedWrites(List.of(), List.of(new CommittedWrites.Counts(id, likes, dislikes)));
  }

  @Test
  void anAnnouncedAlbumIsKeptAsAnnounced() {
    cache.committed(
        new CommittedWrites(List.of(new CommittedWrites.Album("x", PROFILE)), List.of()));

    assertThat(cache.album("x")).contains(PROFILE);
    assertThat(cache.album("y")).isEmpty();
    // A new album's counts are not assumed: reviews may have come before it.
    assertThat(cache.counts("x")).isEmpty();
  }

  @Test
  void countsNeverGoBackwardsWhateverOrderReadsAndAnnouncementsArriveIn() {
    cache.committed(counts("x", 5, 2));
    cache.countsRead("x", new ReviewCounts(3, 4), cache.now()); // a read that began earlier
    assertThat(cache.counts("x")).contains(new ReviewCounts(5, 4));

    cache.committed(counts("x", 4, 1)); // an announcement that arrives late
    assertThat(cache.counts("x")).contains(new ReviewCounts(5, 4));

    cache.committed(counts("x", 7, 4));
    assertThat(cache.counts("x")).contains(new ReviewCounts(7, 4));
  }

  @Test
  void aCountIsServedAtMostItsMaxAgeAfterItWasLastReadOrAnnounced() {
    long start = cache.now();
    advanceMs(300); // the query took 300 ms: what it read was current when it began
    cache.countsRead("x", new ReviewCounts(1, 0), start);
    advanceMs(700);
    assertThat(cache.counts("x")).contains(new ReviewCounts(1, 0));
    advanceMs(1);
    assertThat(cache.counts("x")).isEmpty();

    cache.committed(counts("x", 2, 0)); // an announcement makes it current again
    advanceMs(1000);
    assertThat(cache.counts("x")).contains(new ReviewCounts(2, 0));
    advanceMs(1);
    assertThat(cache.counts("x")).isEmpty();
  }

  @Test
  void entriesAreBoundedBySetting() {
    ReadCache small = new ReadCache(new ReadCacheSettings(10, 10, 1000), clock::get);
    for (int i = 0; i < 1000; i++) {
      small.albumRead("a" + i, PROFILE);
      small.committed(counts("a" + i, i, 0));
    }
    small.cleanUp();

    assertThat(small.size()).isLessThanOrEqualTo(20);
  }

  @Test
  void zeroEntriesCachesNothing() {
    ReadCache none = new ReadCache(new ReadCacheSettings(0, 0, 1000), clock::get);
    none.albumRead("x", PROFILE);
    none.committed(counts("x", 1, 1));

    assertThat(none.album("x")).isEmpty();
    assertThat(none.cachesCounts()).isFalse();
    assertThat(none.counts("x")).isEmpty();
  }
}
