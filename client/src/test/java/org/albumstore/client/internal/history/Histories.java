package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Operation;
import org.albumstore.client.history.Verdict;
import org.albumstore.common.event.Identifiers;

/**
 * Synthetic histories for the checker's tests, written as a timeline of attempts (times in µs), and
 * the database that a correct system would leave after them.
 */
final class Histories {
  private final List<Operation> ops = new ArrayList<>();
  private final Set<String> albums = new HashSet<>();
  private final Map<String, long[]> counts = new HashMap<>();
  private final Set<UUID> applied = new HashSet<>();

  static String albumOf(String key) {
    return Identifiers.albumIdForKey(key);
  }

  private Operation add(
      String process,
      RequestType type,
      String key,
      String albumId,
      long sent,
      long end,
      String outcome,
      long likes,
      long dislikes,
      boolean bad) {
    Operation o =
        new Operation(
            ops.size() + 1, process, type, key, albumId, sent, end, outcome, likes, dislikes, bad);
    ops.add(o);
    return o;
  }

  /** A POST /albums attempt; a 200 returns the key's album ID. */
  Histories create(String process, String key, long sent, long end, String outcome) {
    add(
        process,
        RequestType.POST_ALBUMS,
        key,
        "200".equals(outcome) ? albumOf(key) : null,
        sent,
        end,
        outcome,
        -1,
        -1,
        false);
    return this;
  }

  Histories like(String process, String key, String albumId, long sent, long end, String outcome) {
    add(process, RequestType.POST_LIKE, key, albumId, sent, end, outcome, -1, -1, false);
    return this;
  }

  Histories dislike(
      String process, String key, String albumId, long sent, long end, String outcome) {
    add(process, RequestType.POST_DISLIKE, key, albumId, sent, end, outcome, -1, -1, false);
    return this;
  }

  Histories getAlbum(String process, String albumId, long sent, long end, String outcome) {
    add(process, RequestType.GET_ALBUM, null, albumId, sent, end, outcome, -1, -1, false);
    return this;
  }

  Histories getReview(
      String process, String albumId, long sent, long end, long likes, long dislikes) {
    add(process, RequestType.GET_REVIEW, null, albumId, sent, end, "200", likes, dislikes, false);
    return this;
  }

  /** The database has the album of {@code key}. */
  Histories stored(String key) {
    albums.add(albumOf(key));
    return this;
  }

  /** The ledger has the review of {@code key}, and its counter moved once. */
  Histories applied(String key, String albumId, boolean like) {
    applied.add(Identifiers.reviewEventIdForKey(key));
    counts.computeIfAbsent(albumId, a -> new long[2])[like ? 0 : 1]++;
    return this;
  }

  /** The counter moved without the ledger: what applying a redelivery twice leaves. */
  Histories counterMovedAgain(String albumId, boolean like) {
    counts.computeIfAbsent(albumId, a -> new long[2])[like ? 0 : 1]++;
    return this;
  }

  History history() {
    return new History("test", 0, ops, true, 0);
  }

  DatabaseState database() {
    Map<String, DatabaseState.Counts> c = new HashMap<>();
    counts.forEach((a, v) -> c.put(a, new DatabaseState.Counts(v[0], v[1])));
    return new DatabaseState(albums, c, applied);
  }

  Verdict check() {
    return HistoryChecker.check(history(), database());
  }
}
