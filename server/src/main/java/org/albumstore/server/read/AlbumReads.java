package org.albumstore.server.read;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.albumstore.common.event.AlbumProfile;

/**
 * The JDBC reads behind the GETs: one statement each, bound parameters only, and a short query
 * timeout so that a struggling database answers 503 rather than holding request threads.
 *
 * <p>Reads see what the consumer has applied so far: a 200 on a write means "durably queued", not
 * "visible". {@code GET /albums/{albumID}} adds read-your-writes on top by waiting ({@link
 * AlbumWaiters}, which uses {@link #albums}); {@code GET /review/{albumID}} stays eventually
 * consistent.
 */
public final class AlbumReads {
  static final int QUERY_TIMEOUT_SECONDS = 5;

  private static final String ALBUM_SQL =
      "SELECT artist, title, year FROM albums WHERE album_id = ?";

  private static final String ALBUMS_SQL =
      "SELECT album_id, artist, title, year FROM albums WHERE album_id = ANY (?)";

  /**
   * One round trip that tells three cases apart: counters exist (reviewed album, or an album the
   * client numbers itself); no counters but the album exists (zeros); neither (no row: 404).
   */
  private static final String REVIEWS_SQL =
      "SELECT r.likes, r.dislikes FROM (SELECT CAST(? AS text) AS id) q"
          + " LEFT JOIN album_reviews r ON r.album_id = q.id"
          + " WHERE r.album_id IS NOT NULL"
          + " OR EXISTS (SELECT 1 FROM albums a WHERE a.album_id = q.id)";

  private final DataSource db;
  private final ReadCache cache;

  /** Reads that answer from {@code cache} what it holds, and keep there what they read. */
  public AlbumReads(DataSource db, ReadCache cache) {
    this.db = db;
    this.cache = cache;
  }

  /** The album's profile, or empty when no album has this ID (yet). */
  public Optional<AlbumProfile> album(String albumId) throws ReadFailedException {
    Optional<AlbumProfile> cached = cache.album(albumId);
    if (cached.isPresent()) {
      return cached;
    }
    Optional<AlbumProfile> read = readAlbum(albumId);
    read.ifPresent(p -> cache.albumRead(albumId, p));
    return read;
  }

  private Optional<AlbumProfile> readAlbum(String albumId) throws ReadFailedException {
    try (Connection c = db.getConnection();
        PreparedStatement ps = c.prepareStatement(ALBUM_SQL)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setString(1, albumId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(new AlbumProfile(rs.getString(1), rs.getString(2), rs.getString(3)));
      }
    } catch (SQLException e) {
      throw new ReadFailedException("reading album failed", e);
    }
  }

  /**
   * The profiles of those of {@code albumIds} that exist in the database, by ID: one statement for
   * all (the waiting reads' poller; what is cached already answered them, {@link AlbumWaiters}).
   */
  public Map<String, AlbumProfile> albums(Collection<String> albumIds) throws ReadFailedException {
    Map<String, AlbumProfile> found = new HashMap<>();
    try (Connection c = db.getConnection();
        PreparedStatement ps = c.prepareStatement(ALBUMS_SQL)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setArray(1, c.createArrayOf("text", albumIds.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          AlbumProfile p = new AlbumProfile(rs.getString(2), rs.getString(3), rs.getString(4));
          found.put(rs.getString(1), p);
          cache.albumRead(rs.getString(1), p);
        }
      }
      return found;
    } catch (SQLException e) {
      throw new ReadFailedException("reading albums failed", e);
    }
  }

  /**
   * The album's counters (zeros for a known album without reviews), or empty when unknown; from the
   * cache when it holds them current ({@link ReadCache#counts}).
   */
  public Optional<ReviewCounts> reviews(String albumId) throws ReadFailedException {
    if (!cache.cachesCounts()) {
      return readReviews(albumId);
    }
    Optional<ReviewCounts> cached = cache.counts(albumId);
    if (cached.isPresent()) {
      return cached;
    }
    long start = cache.now();
    Optional<ReviewCounts> read = readReviews(albumId);
    read.ifPresent(r -> cache.countsRead(albumId, r, start));
    // What the cache holds now: a larger value announced meanwhile must not be hidden by this one.
    return read.isPresent() ? cache.counts(albumId).or(() -> read) : read;
  }

  private Optional<ReviewCounts> readReviews(String albumId) throws ReadFailedException {
    try (Connection c = db.getConnection();
        PreparedStatement ps = c.prepareStatement(REVIEWS_SQL)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setString(1, albumId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        // getLong of SQL NULL is 0: the album exists but has no counters row yet.
        return Optional.of(new ReviewCounts(rs.getLong(1), rs.getLong(2)));
      }
    } catch (SQLException e) {
      throw new ReadFailedException("reading review counts failed", e);
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
