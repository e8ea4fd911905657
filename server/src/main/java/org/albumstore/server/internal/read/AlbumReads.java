package org.albumstore.server.internal.read;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.albumstore.common.event.AlbumProfile;

/**
 * The reads behind the GETs: what the cache holds answers at once, the rest goes to the {@link
 * GroupReader}, which asks the database once for all the GETs waiting together; bound parameters
 * only, and a short query timeout so that a struggling database answers 503 rather than holding
 * request threads.
 *
 * <p>Reads see what the consumer has applied so far: a 200 on a write means "durably queued", not
 * "visible". {@code GET /albums/{albumID}} adds read-your-writes on top by waiting ({@link
 * AlbumWaiters}, which uses {@link #albums}); {@code GET /review/{albumID}} stays eventually
 * consistent.
 */
public final class AlbumReads {
  static final int QUERY_TIMEOUT_SECONDS = 5;

  /**
   * The longest a GET waits for its group's answer: the read pool's wait for a connection (5 s,
   * {@code Databases.pool}) plus one query's timeout, plus a second; past it the GET answers 503.
   */
  public static final Duration WAIT_BOUND = Duration.ofSeconds(5L + QUERY_TIMEOUT_SECONDS + 1);

  /**
   * One primary-key probe per ID: {@code unnest} of the bound array with a scalar subquery each.
   * Not {@code WHERE album_id = ANY (?)}: on a small table PostgreSQL plans that as a sequential
   * scan (0.4 ms for 2,000 rows), which a group pays whatever its size; a scalar subquery cannot be
   * turned into a join or a hash, so each ID costs one index probe (a few µs).
   */
  private static final String ALBUMS_SQL =
      "SELECT q.id, (SELECT ARRAY[a.artist, a.title, a.year] FROM albums a"
          + " WHERE a.album_id = q.id) FROM unnest(CAST(? AS text[])) AS q(id)";

  /**
   * The same, telling three cases apart for each ID in one snapshot: counters exist (reviewed
   * album, or an album the client numbers itself); no counters but the album exists (zeros);
   * neither (404).
   */
  private static final String REVIEWS_SQL =
      "SELECT q.id, (SELECT ARRAY[r.likes, r.dislikes] FROM album_reviews r"
          + " WHERE r.album_id = q.id), (SELECT true FROM albums a WHERE a.album_id = q.id)"
          + " FROM unnest(CAST(? AS text[])) AS q(id)";

  /** A group of one: main's one-row statements, cheaper for PostgreSQL than the array's. */
  private static final String ALBUM_SQL =
      "SELECT album_id, artist, title, year FROM albums WHERE album_id = ?";

  private static final String REVIEW_SQL =
      "SELECT q.id, r.likes, r.dislikes, r.album_id IS NULL FROM (SELECT CAST(? AS text) AS id) q"
          + " LEFT JOIN album_reviews r ON r.album_id = q.id"
          + " WHERE r.album_id IS NOT NULL"
          + " OR EXISTS (SELECT 1 FROM albums a WHERE a.album_id = q.id)";

  private static final ReviewCounts NO_REVIEWS = new ReviewCounts(0, 0);

  private final DataSource db;
  private final ReadCache cache;
  private final GroupReader group;

  /**
   * Reads that answer from {@code cache} what it holds, ask {@code group} the rest, and keep in
   * {@code cache} what they read; {@code db} is the read pool, for {@link #isUp}.
   */
  public AlbumReads(DataSource db, ReadCache cache, GroupReader group) {
    this.db = db;
    this.cache = cache;
    this.group = group;
  }

  /**
   * What the {@link GroupReader} asks: one connection of {@code db} per group, and at most one
   * statement per kind of GET in it.
   */
  public static GroupReader.Source source(DataSource db) {
    return (countIds, albumIds) -> {
      try (Connection c = db.getConnection()) {
        return new GroupReader.Found(
            countIds.isEmpty() ? Map.of() : readReviews(c, countIds),
            albumIds.isEmpty() ? Map.of() : readAlbums(c, albumIds));
      }
    };
  }

  /** The album's profile, or empty when no album has this ID (yet). */
  public Optional<AlbumProfile> album(String albumId) throws ReadFailedException {
    Optional<AlbumProfile> cached = cache.album(albumId);
    if (cached.isPresent()) {
      return cached;
    }
    Optional<AlbumProfile> read = group.album(albumId);
    read.ifPresent(p -> cache.albumRead(albumId, p));
    return read;
  }

  /**
   * The profiles of those of {@code albumIds} that exist in the database, by ID, asked together
   * (the waiting reads' poller; what is cached already answered them, {@link AlbumWaiters}).
   */
  public Map<String, AlbumProfile> albums(Collection<String> albumIds) throws ReadFailedException {
    Map<String, AlbumProfile> found = group.albums(albumIds);
    found.forEach(cache::albumRead);
    return found;
  }

  /**
   * The album's counters (zeros for a known album without reviews), or empty when unknown; from the
   * cache when it holds them current ({@link ReadCache#counts}), else from a group read, without
   * waiting on this thread ({@link GroupReader#countsLater}: complete on return when asked alone).
   */
  public CompletableFuture<Optional<ReviewCounts>> reviewsLater(String albumId) {
    if (!cache.cachesCounts()) {
      return group.countsLater(albumId);
    }
    Optional<ReviewCounts> cached = cache.counts(albumId);
    if (cached.isPresent()) {
      return CompletableFuture.completedFuture(cached);
    }
    long start = cache.now();
    return group
        .countsLater(albumId)
        .thenApply(
            read -> {
              read.ifPresent(r -> cache.countsRead(albumId, r, start));
              // What the cache holds now: a larger value announced meanwhile must not be hidden.
              return read.isPresent() ? cache.counts(albumId).or(() -> read) : read;
            });
  }

  private static Map<String, ReviewCounts> readReviews(Connection c, Set<String> ids)
      throws SQLException {
    if (ids.size() == 1) {
      return readReview(c, ids.iterator().next());
    }
    Map<String, ReviewCounts> found = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(REVIEWS_SQL)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Array counts = rs.getArray(2);
          if (counts != null) {
            Object[] v = (Object[]) counts.getArray();
            found.put(
                rs.getString(1),
                new ReviewCounts(((Number) v[0]).longValue(), ((Number) v[1]).longValue()));
          } else if (rs.getBoolean(3)) {
            found.put(rs.getString(1), NO_REVIEWS); // the album, without counters
          }
        }
      }
    }
    return found;
  }

  private static Map<String, ReviewCounts> readReview(Connection c, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(REVIEW_SQL)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Map.of();
        }
        // No counters row: the album exists without reviews (zeros).
        return Map.of(
            id, rs.getBoolean(4) ? NO_REVIEWS : new ReviewCounts(rs.getLong(2), rs.getLong(3)));
      }
    }
  }

  private static Map<String, AlbumProfile> readAlbums(Connection c, Set<String> ids)
      throws SQLException {
    if (ids.size() == 1) {
      return readAlbum(c, ids.iterator().next());
    }
    Map<String, AlbumProfile> found = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(ALBUMS_SQL)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Array profile = rs.getArray(2);
          if (profile != null) {
            Object[] v = (Object[]) profile.getArray();
            found.put(
                rs.getString(1), new AlbumProfile((String) v[0], (String) v[1], (String) v[2]));
          }
        }
      }
    }
    return found;
  }

  private static Map<String, AlbumProfile> readAlbum(Connection c, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(ALBUM_SQL)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Map.of(id, new AlbumProfile(rs.getString(2), rs.getString(3), rs.getString(4)))
            : Map.of();
      }
    }
  }

  /** True when the database answers a trivial query within a second or two. */
  public boolean isUp() {
    try (Connection c = db.getConnection()) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }
}
