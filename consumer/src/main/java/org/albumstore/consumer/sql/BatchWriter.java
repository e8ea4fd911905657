package org.albumstore.consumer.sql;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.CommittedWrites;
import org.albumstore.common.event.NewAlbum;

/**
 * Applies one {@link Aggregate} in one transaction: at most three statements and one commit,
 * however many messages the batch holds.
 *
 * <p>Exactly-once effect: a review moves a counter only if its ledger ID was new to the {@code
 * applied_reviews} ledger, and the ledger row and the counter change commit together. The ledger ID
 * is the review's event ID when it is keyed (a client retry arrives in another message), and its
 * message's ID when it is not (only a redelivery of the same message can repeat it): one row for
 * all the unkeyed reviews of a message, which therefore apply all or none. A batch that is
 * redelivered or retried after a failure changes nothing twice; albums are inserted {@code ON
 * CONFLICT DO NOTHING} by their ID for the same reason.
 *
 * <p>Each statement takes its rows as arrays bound to one parameter per column (never values in the
 * SQL text), so its text is constant and the server-side prepared statement is reused.
 */
public final class BatchWriter implements AggregateWriter {
  static final String INSERT_ALBUMS =
      "INSERT INTO albums (album_id, artist, title, year, image, image_size)"
          + " SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::int[])"
          + " ON CONFLICT (album_id) DO NOTHING RETURNING album_id, artist, title, year";

  static final String RECORD_REVIEWS =
      "INSERT INTO applied_reviews (event_id) SELECT unnest(?::uuid[])"
          + " ON CONFLICT (event_id) DO NOTHING RETURNING event_id";

  /**
   * The counters move by the deltas; an album's review time only forward ({@code greatest} skips a
   * null: a batch of version 2 messages leaves it as it was).
   */
  static final String ADD_TO_COUNTERS =
      "INSERT INTO album_reviews (album_id, likes, dislikes, last_review_at)"
          + " SELECT a, l, d, to_timestamp(t / 1000.0)"
          + " FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) AS u(a, l, d, t)"
          + " ON CONFLICT (album_id) DO UPDATE SET likes = album_reviews.likes + EXCLUDED.likes,"
          + " dislikes = album_reviews.dislikes + EXCLUDED.dislikes,"
          + " last_review_at = greatest(album_reviews.last_review_at, EXCLUDED.last_review_at)"
          + " RETURNING album_id, likes, dislikes";

  private final DataSource dataSource;

  public BatchWriter(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Applies {@code batch} and commits, or rolls back and throws: nothing of a failed batch stays.
   */
  @Override
  public WriteResult write(Aggregate batch) throws SQLException {
    long start = System.nanoTime();
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        List<CommittedWrites.Album> albums = insertAlbums(c, batch.albums());
        List<UUID> fresh = recordInLedger(c, batch.ledgerIds());
        List<AlbumDelta> deltas = batch.deltasFor(fresh);
        List<CommittedWrites.Counts> counts = new ArrayList<>(deltas.size());
        int reviews = addToCounters(c, deltas, counts);
        long commitStart = System.nanoTime();
        c.commit();
        long end = System.nanoTime();
        return new WriteResult(
            batch.messageCount(),
            reviews,
            new CommittedWrites(albums, counts),
            commitStart - start,
            end - commitStart);
      } catch (SQLException | RuntimeException e) {
        rollback(c, e);
        throw e;
      }
    }
  }

  /** Inserts the albums that are new; returns those, as inserted. */
  private static List<CommittedWrites.Album> insertAlbums(Connection c, List<NewAlbum> albums)
      throws SQLException {
    if (albums.isEmpty()) {
      return List.of();
    }
    int n = albums.size();
    String[] ids = new String[n];
    String[] artists = new String[n];
    String[] titles = new String[n];
    String[] years = new String[n];
    byte[][] images = new byte[n][];
    Integer[] sizes = new Integer[n];
    for (int i = 0; i < n; i++) {
      NewAlbum a = albums.get(i);
      ids[i] = a.albumId();
      artists[i] = a.profile().artist();
      titles[i] = a.profile().title();
      years[i] = a.profile().year();
      images[i] = a.image();
      sizes[i] = a.image().length;
    }
    try (PreparedStatement ps = c.prepareStatement(INSERT_ALBUMS)) {
      ps.setArray(1, c.createArrayOf("text", ids));
      ps.setArray(2, c.createArrayOf("text", artists));
      ps.setArray(3, c.createArrayOf("text", titles));
      ps.setArray(4, c.createArrayOf("text", years));
      ps.setArray(5, c.createArrayOf("bytea", images));
      ps.setArray(6, c.createArrayOf("int4", sizes));
      List<CommittedWrites.Album> inserted = new ArrayList<>(n);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          inserted.add(
              new CommittedWrites.Album(
                  rs.getString(1),
                  new AlbumProfile(rs.getString(2), rs.getString(3), rs.getString(4))));
        }
      }
      return inserted;
    }
  }

  /** Records the IDs in the ledger; returns those it had not seen before. */
  private static List<UUID> recordInLedger(Connection c, List<UUID> eventIds) throws SQLException {
    if (eventIds.isEmpty()) {
      return List.of();
    }
    List<UUID> fresh = new ArrayList<>(eventIds.size());
    try (PreparedStatement ps = c.prepareStatement(RECORD_REVIEWS)) {
      Array ids = c.createArrayOf("uuid", eventIds.toArray(new UUID[0]));
      ps.setArray(1, ids);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          fresh.add(rs.getObject(1, UUID.class));
        }
      }
    }
    return fresh;
  }

  /**
   * Adds the deltas to the counters and the counters' new values to {@code committed}; returns how
   * many reviews that is.
   */
  private static int addToCounters(
      Connection c, List<AlbumDelta> deltas, List<CommittedWrites.Counts> committed)
      throws SQLException {
    if (deltas.isEmpty()) {
      return 0;
    }
    int n = deltas.size();
    String[] ids = new String[n];
    Long[] likes = new Long[n];
    Long[] dislikes = new Long[n];
    Long[] times = new Long[n];
    long reviews = 0;
    for (int i = 0; i < n; i++) {
      AlbumDelta d = deltas.get(i);
      ids[i] = d.albumId();
      likes[i] = d.likes();
      dislikes[i] = d.dislikes();
      times[i] = d.lastReviewAtMillis();
      reviews += d.likes() + d.dislikes();
    }
    try (PreparedStatement ps = c.prepareStatement(ADD_TO_COUNTERS)) {
      ps.setArray(1, c.createArrayOf("text", ids));
      ps.setArray(2, c.createArrayOf("int8", likes));
      ps.setArray(3, c.createArrayOf("int8", dislikes));
      ps.setArray(4, c.createArrayOf("int8", times));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          committed.add(new CommittedWrites.Counts(rs.getString(1), rs.getLong(2), rs.getLong(3)));
        }
      }
    }
    return Math.toIntExact(reviews);
  }

  private static void rollback(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException | RuntimeException e) {
      // The connection is likely broken; the pool discards it. Keep the original failure primary.
      cause.addSuppressed(e);
    }
  }
}
