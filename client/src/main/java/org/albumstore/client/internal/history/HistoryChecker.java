package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Property;
import org.albumstore.client.history.PropertyResult;
import org.albumstore.client.history.Verdict;
import org.albumstore.client.history.Violation;

/**
 * Judges a whole history against the promises ({@link Property}), after the model of Jepsen's
 * checkers: the operations are facts with an invocation and a completion time, a property is broken
 * only when no order of the concurrent operations could explain what was seen, and each property
 * has a small checker of its own that says valid, invalid or unknown with its evidence. This class
 * only composes them: one {@link HistoryModel} for all, then every checker, in the order of {@link
 * Property}, into one {@link Verdict}.
 */
public final class HistoryChecker {
  /** One per property, in the order of {@link Property} (the order of the report). */
  static final List<PropertyChecker> CHECKERS =
      List.of(
          new NoLostWriteChecker(),
          new NoDuplicateChecker(),
          new NoPhantomChecker(),
          new ReadYourWritesChecker(),
          new MonotonicCountsChecker(),
          new BoundedCountsChecker());

  private HistoryChecker() {}

  /**
   * Judges {@code history}; with {@code db} null only the read properties (read-your-writes,
   * monotonic and bounded counts), the write properties then unknown.
   */
  public static Verdict check(History history, DatabaseState db) {
    if (!history.isWhole()) {
      return Verdict.notJudged(
          history.complete()
              ? history.lost() + " attempts were not recorded"
              : "the file ends before its trailer (the client did not close it)",
          history.operations().size());
    }
    HistoryModel model = new HistoryModel(history);
    Map<Property, PropertyResult> results = new EnumMap<>(Property.class);
    List<Violation> violations = new ArrayList<>();
    for (PropertyChecker checker : CHECKERS) {
      PropertyResult r = checker.check(model, db);
      results.put(r.property(), r);
      violations.addAll(r.violations());
    }
    long acknowledged = model.writes().stream().filter(HistoryModel.Write::acknowledged).count();
    long refused = model.writes().stream().filter(HistoryModel.Write::refused).count();
    Verdict.Writes writes =
        new Verdict.Writes(
            model.writes().size(), acknowledged, refused, db == null ? 0 : model.recovered(db));
    return Verdict.judged(history.operations().size(), db != null, writes, violations, results);
  }

  /**
   * The rows the write properties read: the albums of the history's writes, and the ledger event
   * IDs of its reviews (both derived from the idempotency keys, so also those of unanswered
   * writes).
   */
  public record Rows(Set<String> albumIds, Set<UUID> eventIds) {}

  public static Rows rowsToRead(History history) {
    HistoryModel model = new HistoryModel(history);
    Set<UUID> events = new LinkedHashSet<>();
    for (HistoryModel.Write w : model.writes()) {
      boolean review =
          switch (w.type) {
            case POST_LIKE, POST_DISLIKE -> true;
            case POST_ALBUMS -> false; // read by its album ID
            case GET_REVIEW, GET_ALBUM ->
                throw new IllegalStateException(w.type + " is not a write");
          };
      if (review) {
        events.add(w.eventId());
      }
    }
    return new Rows(new LinkedHashSet<>(model.albums().keySet()), events);
  }
}
