package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Operation;
import org.albumstore.common.event.Identifiers;

/**
 * A history grouped as the checkers read it: its logical writes (one idempotency key each, however
 * many attempts it took) and, per album, its creates, likes and dislikes.
 *
 * <p>A write is <em>acknowledged</em> when an attempt got a 200, <em>refused</em> when every
 * attempt got a 4xx (the server validates before it publishes), else <em>indeterminate</em> (a 503,
 * a timeout, an I/O error: the broker may have stored it). An indeterminate write may be in the
 * database or not, both are correct; one that is turned out applied after all (<em>recovered</em>).
 *
 * <p>The database side is read by the keys: an album's ID and a review's ledger event ID are both
 * derived from the write's idempotency key ({@link Identifiers}), so even a write whose answer was
 * lost can be looked for.
 */
final class HistoryModel {

  /** One logical write: all attempts of one idempotency key. */
  static final class Write {
    final String key;
    final RequestType type;
    final List<Operation> attempts = new ArrayList<>();
    String albumId;
    long firstSent = Long.MAX_VALUE;
    long acknowledgedAt = Long.MAX_VALUE; // the end of its first 200
    boolean anyNotRefused;

    Write(String key, RequestType type) {
      this.key = key;
      this.type = type;
    }

    void add(Operation o) {
      attempts.add(o);
      firstSent = Math.min(firstSent, o.sentMicros());
      if (o.isSuccess()) {
        acknowledgedAt = Math.min(acknowledgedAt, o.endMicros());
        if (type == RequestType.POST_ALBUMS && o.albumId() != null) {
          albumId = o.albumId();
        }
      }
      if (!o.isRefused()) {
        anyNotRefused = true;
      }
      if (albumId == null) {
        albumId = type == RequestType.POST_ALBUMS ? Identifiers.albumIdForKey(key) : o.albumId();
      }
    }

    boolean acknowledged() {
      return acknowledgedAt != Long.MAX_VALUE;
    }

    boolean refused() {
      return !anyNotRefused;
    }

    boolean indeterminate() {
      return !acknowledged() && !refused();
    }

    /** The write may be in the database: acknowledged or indeterminate. */
    boolean mayBeApplied() {
      return !refused();
    }

    UUID eventId() {
      return Identifiers.reviewEventIdForKey(key);
    }

    /** Whether the database holds it: the album's row, or the review's ledger entry. */
    boolean presentIn(DatabaseState db) {
      return switch (type) {
        case POST_ALBUMS -> db.albums().contains(albumId);
        case POST_LIKE, POST_DISLIKE -> db.appliedEvents().contains(eventId());
        case GET_REVIEW, GET_ALBUM -> throw notAWrite(type);
      };
    }

    /** How a violation names it. */
    String name() {
      return switch (type) {
        case POST_ALBUMS -> "album " + albumId;
        case POST_LIKE, POST_DISLIKE -> "review " + key;
        case GET_REVIEW, GET_ALBUM -> throw notAWrite(type);
      };
    }
  }

  /** The writes of one album. */
  static final class Album {
    final List<Write> creates = new ArrayList<>();
    final List<Write> likes = new ArrayList<>();
    final List<Write> dislikes = new ArrayList<>();

    Write acknowledgedCreate() {
      return creates.stream()
          .filter(Write::acknowledged)
          .min(Comparator.comparingLong(w -> w.acknowledgedAt))
          .orElse(null);
    }

    List<Write> of(RequestType type) {
      return switch (type) {
        case POST_ALBUMS -> creates;
        case POST_LIKE -> likes;
        case POST_DISLIKE -> dislikes;
        case GET_REVIEW, GET_ALBUM -> throw notAWrite(type);
      };
    }
  }

  /**
   * One counter of one album as the database holds it, beside the reviews that could move it.
   *
   * @param value the counter in {@code album_reviews} (0 without a row)
   * @param applied of the reviews, those the exactly-once ledger applied
   * @param possible of the reviews, those that may have been applied (acknowledged or
   *     indeterminate)
   * @param operations every attempt of those reviews
   */
  record Counter(
      String albumId,
      String name,
      long value,
      long applied,
      long possible,
      List<Operation> operations) {}

  private final History history;
  private final Map<String, Write> writes = new LinkedHashMap<>();
  private final Map<String, Album> albums = new LinkedHashMap<>();

  HistoryModel(History history) {
    this.history = history;
    for (Operation o : history.operations()) {
      if (o.type().isWrite()) {
        writes.computeIfAbsent(o.key(), k -> new Write(k, o.type())).add(o);
      }
    }
    for (Write w : writes.values()) {
      if (w.albumId == null) {
        continue; // a review without an album ID cannot be: the path holds one
      }
      albums.computeIfAbsent(w.albumId, id -> new Album()).of(w.type).add(w);
    }
  }

  List<Operation> operations() {
    return history.operations();
  }

  Collection<Write> writes() {
    return writes.values();
  }

  Map<String, Album> albums() {
    return albums;
  }

  /** The album's writes, or none. */
  Album album(String albumId) {
    Album a = albums.get(albumId);
    return a == null ? new Album() : a;
  }

  /** Indeterminate writes that the database holds: applied after all. */
  long recovered(DatabaseState db) {
    return writes.values().stream().filter(w -> w.indeterminate() && w.presentIn(db)).count();
  }

  /** Every album's likes and dislikes against the ledger and the requests. */
  List<Counter> counters(DatabaseState db) {
    List<Counter> out = new ArrayList<>();
    for (Map.Entry<String, Album> e : albums.entrySet()) {
      DatabaseState.Counts counts = db.counts().get(e.getKey());
      out.add(
          counter(
              e.getKey(), "likes", e.getValue().likes, counts == null ? 0 : counts.likes(), db));
      out.add(
          counter(
              e.getKey(),
              "dislikes",
              e.getValue().dislikes,
              counts == null ? 0 : counts.dislikes(),
              db));
    }
    return out;
  }

  private static Counter counter(
      String albumId, String name, List<Write> reviews, long value, DatabaseState db) {
    return new Counter(
        albumId,
        name,
        value,
        reviews.stream().filter(w -> w.presentIn(db)).count(),
        reviews.stream().filter(Write::mayBeApplied).count(),
        reviews.stream().flatMap(w -> w.attempts.stream()).toList());
  }

  private static IllegalStateException notAWrite(RequestType type) {
    return new IllegalStateException(type.label() + " is not a write");
  }
}
