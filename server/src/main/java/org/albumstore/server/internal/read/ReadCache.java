package org.albumstore.server.internal.read;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.CommittedWrites;
import org.albumstore.server.ReadCacheSettings;

/**
 * What the server keeps in memory to answer GETs without the database: album profiles and, when
 * enabled, review counts. Filled by the database reads and by the consumers' commit announcements
 * ({@link CommitFeed}); bounded by entries ({@link ReadCacheSettings}).
 *
 * <p>The promises it keeps:
 *
 * <ul>
 *   <li>An album is what was inserted: profiles never change, and a cached one came from the
 *       database or from the consumer that inserted it ({@code RETURNING}).
 *   <li>Counts on one server never go backwards: every value that reaches an entry, read or
 *       announced, is merged with what it holds by taking the larger of each counter (counters only
 *       grow, so the larger one is the newer).
 *   <li>A count is at most {@code countsMaxAgeMs} older than the last read or announcement of its
 *       album: past that it is read again. A commit whose announcement was lost therefore shows at
 *       most that long after it would have.
 * </ul>
 */
public final class ReadCache {
  /** A cached count, and when it was last known to be current (nanoTime). */
  private record Counts(long likes, long dislikes, long currentAtNanos) {
    Counts newest(Counts other) {
      return new Counts(
          Math.max(likes, other.likes),
          Math.max(dislikes, other.dislikes),
          Math.max(currentAtNanos, other.currentAtNanos));
    }
  }

  private final Cache<String, AlbumProfile> albums;
  private final Cache<String, Counts> counts;
  private final long countsMaxAgeNanos;
  private final LongSupplier nanoTime;

  public ReadCache(ReadCacheSettings settings) {
    this(settings, System::nanoTime);
  }

  /** With the clock given (tests). */
  ReadCache(ReadCacheSettings settings, LongSupplier nanoTime) {
    this.albums = settings.albums() > 0 ? build(settings.albums()) : null;
    this.counts = settings.counts() > 0 ? build(settings.counts()) : null;
    this.countsMaxAgeNanos = TimeUnit.MILLISECONDS.toNanos(settings.countsMaxAgeMs());
    this.nanoTime = nanoTime;
  }

  /**
   * Evictions run on the threads that use the cache, not on the common fork-join pool: a web
   * application leaves no task behind when it stops, and the bound holds at every moment.
   */
  private static <V> Cache<String, V> build(int maxEntries) {
    return Caffeine.newBuilder()
        .maximumSize(maxEntries)
        .executor(Runnable::run)
        .recordStats()
        .build();
  }

  /** The album's profile if it is cached. */
  public Optional<AlbumProfile> album(String albumId) {
    return albums == null ? Optional.empty() : Optional.ofNullable(albums.getIfPresent(albumId));
  }

  /** Keeps an album read from the database. */
  public void albumRead(String albumId, AlbumProfile profile) {
    if (albums != null) {
      albums.put(albumId, profile);
    }
  }

  /** True when review counts are cached at all. */
  public boolean cachesCounts() {
    return counts != null;
  }

  /** The album's counts if they are cached and current within the bound. */
  public Optional<ReviewCounts> counts(String albumId) {
    Counts c = counts == null ? null : counts.getIfPresent(albumId);
    if (c == null || nanoTime.getAsLong() - c.currentAtNanos > countsMaxAgeNanos) {
      return Optional.empty();
    }
    return Optional.of(new ReviewCounts(c.likes, c.dislikes));
  }

  /**
   * Keeps counts read from the database by a query that began at {@code queryStartNanos} (what it
   * read was current then, not necessarily when it returned).
   */
  public void countsRead(String albumId, ReviewCounts read, long queryStartNanos) {
    merge(albumId, new Counts(read.likes(), read.dislikes(), queryStartNanos));
  }

  /** The clock of {@link #countsRead}'s start. */
  public long now() {
    return nanoTime.getAsLong();
  }

  /**
   * Takes in what a consumer committed: its albums, and its counters as committed. (A new album's
   * counts are not taken to be zero: reviews may have come before it, for a client that numbers its
   * albums itself.)
   */
  public void committed(CommittedWrites c) {
    long now = nanoTime.getAsLong();
    if (albums != null) {
      for (CommittedWrites.Album a : c.albums()) {
        albums.put(a.albumId(), a.profile());
      }
    }
    for (CommittedWrites.Counts n : c.counts()) {
      merge(n.albumId(), new Counts(n.likes(), n.dislikes(), now));
    }
  }

  private void merge(String albumId, Counts c) {
    if (counts != null) {
      counts.asMap().merge(albumId, c, Counts::newest);
    }
  }

  /** Hits, misses, evictions and sizes as {@code cache_*{cache="albums"|"counts"}}. */
  public void bindTo(MeterRegistry registry) {
    if (albums != null) {
      CaffeineCacheMetrics.monitor(registry, albums, "albums");
    }
    if (counts != null) {
      CaffeineCacheMetrics.monitor(registry, counts, "counts");
    }
  }

  /** Runs pending evictions now (tests). */
  void cleanUp() {
    if (albums != null) {
      albums.cleanUp();
    }
    if (counts != null) {
      counts.cleanUp();
    }
  }

  /** Entries held now (tests). */
  long size() {
    return (albums == null ? 0 : albums.estimatedSize())
        + (counts == null ? 0 : counts.estimatedSize());
  }
}
