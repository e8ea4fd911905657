package org.albumstore.client.history;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.albumstore.client.stats.RequestType;
import org.albumstore.common.event.Identifiers;

/**
 * Judges a whole history against the promises ({@link Property}), after the model of Jepsen's
 * checkers: the operations are facts with an invocation and a completion time, and a property is
 * broken only when no order of the concurrent operations could explain what was seen.
 *
 * <p>A write is one idempotency key, however many attempts it took. It is <em>acknowledged</em>
 * when an attempt got a 200, <em>refused</em> when every attempt got a 4xx (the server validates
 * before it publishes), else <em>indeterminate</em> (a 503, a timeout, an I/O error: the broker may
 * have stored it): an indeterminate write may be in the database or not, both are correct.
 *
 * <p>The database side is read by the keys: an album's ID and a review's ledger event ID are both
 * derived from the write's idempotency key ({@link Identifiers}), so even a write whose answer was
 * lost can be looked for. Counts are checked against the ledger: a review the ledger applied once
 * moved the counter once, or something was applied twice.
 *
 * <p>Times: a process sends one request at a time; "after" means sent after the other's answer
 * arrived (µs, one monotonic clock: the client is one JVM).
 */
final class HistoryChecker {

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

    /** The write may be in the database: acknowledged or indeterminate. */
    boolean mayBeApplied() {
      return !refused();
    }

    UUID eventId() {
      return Identifiers.reviewEventIdForKey(key);
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
  }

  private final History history;
  private final Map<String, Write> writes = new LinkedHashMap<>();
  private final Map<String, Album> albums = new LinkedHashMap<>();
  private final List<Violation> violations = new ArrayList<>();
  private long readsJudged;
  private long unavailable;
  private long unanswered;

  private HistoryChecker(History history) {
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
      Album a = albums.computeIfAbsent(w.albumId, id -> new Album());
      switch (w.type) {
        case POST_ALBUMS -> a.creates.add(w);
        case POST_LIKE -> a.likes.add(w);
        default -> a.dislikes.add(w);
      }
    }
  }

  /**
   * Judges {@code history}; with {@code db} null only the read properties (read-your-writes,
   * monotonic and bounded counts).
   */
  public static Verdict check(History history, DatabaseState db) {
    if (!history.isWhole()) {
      return Verdict.notJudged(
          history.complete()
              ? history.lost() + " attempts were not recorded"
              : "the file ends before its trailer (the client did not close it)",
          history.operations().size());
    }
    HistoryChecker c = new HistoryChecker(history);
    if (db != null) {
      c.checkWrites(db);
    }
    c.checkReadYourWrites();
    c.checkMonotonicCounts();
    c.checkBoundedCounts();
    long acknowledged = c.writes.values().stream().filter(Write::acknowledged).count();
    long refused = c.writes.values().stream().filter(Write::refused).count();
    return new Verdict(
        true,
        null,
        db != null,
        history.operations().size(),
        c.writes.size(),
        acknowledged,
        refused,
        c.writes.size() - acknowledged - refused,
        c.readsJudged,
        c.unavailable,
        c.unanswered,
        c.violations);
  }

  /**
   * The rows the write properties read: the albums of the history's writes, and the ledger event
   * IDs of its reviews (both derived from the idempotency keys, so also those of unanswered
   * writes).
   */
  public record Rows(Set<String> albumIds, Set<UUID> eventIds) {}

  public static Rows rowsToRead(History history) {
    HistoryChecker c = new HistoryChecker(history);
    Set<UUID> events = new LinkedHashSet<>();
    for (Write w : c.writes.values()) {
      if (w.type != RequestType.POST_ALBUMS) {
        events.add(w.eventId());
      }
    }
    return new Rows(new LinkedHashSet<>(c.albums.keySet()), events);
  }

  private void violation(Property p, String what, Collection<Operation> ops) {
    violations.add(
        new Violation(
            p, what, ops.stream().sorted(Comparator.comparingLong(Operation::line)).toList()));
  }

  /** No lost write and no phantom: per write, then per album's counters. */
  private void checkWrites(DatabaseState db) {
    for (Write w : writes.values()) {
      boolean present =
          w.type == RequestType.POST_ALBUMS
              ? db.albums().contains(w.albumId)
              : db.appliedEvents().contains(w.eventId());
      String what = w.type == RequestType.POST_ALBUMS ? "album " + w.albumId : "review " + w.key;
      if (w.acknowledged() && !present) {
        violation(
            Property.NO_LOST_WRITE,
            what + " was acknowledged but is not in the database",
            w.attempts);
      } else if (w.refused() && present) {
        violation(
            Property.NO_PHANTOM, what + " was refused (4xx) but is in the database", w.attempts);
      }
    }
    for (Map.Entry<String, Album> e : albums.entrySet()) {
      DatabaseState.Counts counts = db.counts().get(e.getKey());
      checkCounter(
          e.getKey(), "likes", e.getValue().likes, counts == null ? 0 : counts.likes(), db);
      checkCounter(
          e.getKey(),
          "dislikes",
          e.getValue().dislikes,
          counts == null ? 0 : counts.dislikes(),
          db);
    }
  }

  /**
   * One counter against the ledger and the requests: equal to the reviews the ledger applied (less
   * is a lost write, more is one applied twice), and never more than the reviews that may have been
   * applied (more is a phantom).
   */
  private void checkCounter(
      String albumId, String counter, List<Write> reviews, long value, DatabaseState db) {
    long applied = reviews.stream().filter(w -> db.appliedEvents().contains(w.eventId())).count();
    long possible = reviews.stream().filter(Write::mayBeApplied).count();
    List<Operation> ops = reviews.stream().flatMap(w -> w.attempts.stream()).toList();
    if (value < applied) {
      violation(
          Property.NO_LOST_WRITE,
          String.format(
              "album %s has %d %s, but the ledger applied %d of its reviews",
              albumId, value, counter, applied),
          ops);
    } else if (value > applied) {
      violation(
          Property.NO_LOST_WRITE,
          String.format(
              "album %s has %d %s, but the ledger applied %d of its reviews: applied more than once",
              albumId, value, counter, applied),
          ops);
    }
    if (value > possible) {
      violation(
          Property.NO_PHANTOM,
          String.format(
              "album %s has %d %s, but only %d such reviews were asked for (acknowledged or"
                  + " indeterminate)",
              albumId, value, counter, possible),
          ops);
    }
  }

  /**
   * Every {@code GET /albums/{id}} sent after that album's POST got its 200 answers the album: a
   * 404 or another body is a violation; a 503 is honest unavailability and a timeout an unanswered
   * read, both counted, neither a violation.
   */
  private void checkReadYourWrites() {
    for (Operation g : history.operations()) {
      if (g.type() != RequestType.GET_ALBUM) {
        continue;
      }
      Album a = albums.get(g.albumId());
      Write create = a == null ? null : a.acknowledgedCreate();
      if (create == null || g.sentMicros() <= create.acknowledgedAt) {
        continue; // not acknowledged before the GET was sent: nothing promised
      }
      readsJudged++;
      List<Operation> ops = new ArrayList<>(create.attempts);
      ops.add(g);
      if (g.isSuccess() && g.badBody()) {
        violation(Property.READ_YOUR_WRITES, "GET answered another album's profile", ops);
      } else if (g.status() == 404) {
        violation(
            Property.READ_YOUR_WRITES, "GET answered 404 for an album acknowledged before it", ops);
      } else if (g.status() == 503) {
        unavailable++;
      } else if (g.status() < 0) {
        unanswered++;
      } else if (!g.isSuccess()) {
        violation(Property.READ_YOUR_WRITES, "GET answered " + g.outcome(), ops);
      }
    }
  }

  /** Of one process and one album, a later read never shows fewer likes or dislikes. */
  private void checkMonotonicCounts() {
    Map<String, Operation> last = new HashMap<>();
    List<Operation> reads =
        history.operations().stream()
            .filter(HistoryChecker::isCountRead)
            .sorted(Comparator.comparingLong(Operation::sentMicros))
            .toList();
    for (Operation r : reads) {
      String id = r.process() + ' ' + r.albumId();
      Operation before = last.get(id);
      if (before != null
          && before.endMicros() <= r.sentMicros()
          && (r.likes() < before.likes() || r.dislikes() < before.dislikes())) {
        violation(
            Property.MONOTONIC_COUNTS,
            "process " + r.process() + " read album " + r.albumId() + "'s counts going backwards",
            List.of(before, r));
      }
      if (before == null || r.likes() >= before.likes() && r.dislikes() >= before.dislikes()) {
        last.put(id, r);
      }
    }
  }

  /**
   * A count read never exceeds the reviews of that album that were sent before the read was
   * answered and may have been applied (acknowledged or indeterminate).
   */
  private void checkBoundedCounts() {
    for (Operation r : history.operations()) {
      if (!isCountRead(r)) {
        continue;
      }
      readsJudged++;
      Album a = albums.get(r.albumId());
      List<Write> likes = a == null ? List.of() : a.likes;
      List<Write> dislikes = a == null ? List.of() : a.dislikes;
      bounded(r, "likes", r.likes(), likes);
      bounded(r, "dislikes", r.dislikes(), dislikes);
    }
  }

  private void bounded(Operation read, String counter, long seen, List<Write> reviews) {
    List<Write> possible =
        reviews.stream().filter(w -> w.mayBeApplied() && w.firstSent < read.endMicros()).toList();
    if (seen > possible.size()) {
      List<Operation> ops = new ArrayList<>();
      possible.forEach(w -> ops.addAll(w.attempts));
      ops.add(read);
      violation(
          Property.BOUNDED_COUNTS,
          String.format(
              "read %d %s of album %s, but only %d could have been applied by then",
              seen, counter, read.albumId(), possible.size()),
          ops);
    }
  }

  private static boolean isCountRead(Operation o) {
    return o.type() == RequestType.GET_REVIEW && o.isSuccess() && !o.badBody();
  }
}
