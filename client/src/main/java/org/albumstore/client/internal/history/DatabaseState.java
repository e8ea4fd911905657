package org.albumstore.client.internal.history;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What PostgreSQL holds for the albums and reviews a history names: the albums present, their
 * counters, and which of the reviews' event IDs the exactly-once ledger ({@code applied_reviews})
 * has. Only these rows are read, so other runs sharing the database do not matter.
 *
 * @param albums the album IDs present in {@code albums}
 * @param counts likes and dislikes per album present in {@code album_reviews}
 * @param appliedEvents the event IDs present in {@code applied_reviews}
 */
public record DatabaseState(
    Set<String> albums, Map<String, Counts> counts, Set<UUID> appliedEvents) {

  /** An album's counters. */
  public record Counts(long likes, long dislikes) {}

  private static final int CHUNK = 10_000;

  public DatabaseState {
    albums = Set.copyOf(albums);
    counts = Map.copyOf(counts);
    appliedEvents = Set.copyOf(appliedEvents);
  }

  /** Reads the rows of {@code albumIds} and {@code eventIds}, in chunks of bound arrays. */
  public static DatabaseState read(
      Connection c, Collection<String> albumIds, Collection<UUID> eventIds) throws SQLException {
    Set<String> albums = new HashSet<>();
    Map<String, Counts> counts = new HashMap<>();
    Set<UUID> events = new HashSet<>();
    for (List<String> chunk : chunks(albumIds)) {
      try (PreparedStatement s =
          c.prepareStatement("SELECT album_id FROM albums WHERE album_id = ANY (?)")) {
        s.setArray(1, c.createArrayOf("text", chunk.toArray()));
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            albums.add(r.getString(1));
          }
        }
      }
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT album_id, likes, dislikes FROM album_reviews WHERE album_id = ANY (?)")) {
        s.setArray(1, c.createArrayOf("text", chunk.toArray()));
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            counts.put(r.getString(1), new Counts(r.getLong(2), r.getLong(3)));
          }
        }
      }
    }
    for (List<UUID> chunk : chunks(eventIds)) {
      try (PreparedStatement s =
          c.prepareStatement("SELECT event_id FROM applied_reviews WHERE event_id = ANY (?)")) {
        Array ids = c.createArrayOf("uuid", chunk.toArray());
        s.setArray(1, ids);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            events.add(r.getObject(1, UUID.class));
          }
        }
      }
    }
    return new DatabaseState(albums, counts, events);
  }

  private static <T> List<List<T>> chunks(Collection<T> all) {
    List<List<T>> out = new ArrayList<>();
    List<T> current = new ArrayList<>();
    for (T t : all) {
      current.add(t);
      if (current.size() == CHUNK) {
        out.add(current);
        current = new ArrayList<>();
      }
    }
    if (!current.isEmpty()) {
      out.add(current);
    }
    return out;
  }
}
