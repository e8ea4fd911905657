package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.albumstore.client.history.Operation;
import org.albumstore.client.history.Property;
import org.albumstore.client.history.PropertyResult;
import org.albumstore.client.history.Violation;

/**
 * Monotonic counts: of one process and one album, a read that starts after another ended never
 * shows fewer likes or dislikes. Two processes may disagree (each sees the counters at its own
 * moment); concurrent reads of one process cannot happen (one request at a time).
 */
final class MonotonicCountsChecker implements PropertyChecker {
  @Override
  public Property property() {
    return Property.MONOTONIC_COUNTS;
  }

  @Override
  public PropertyResult check(HistoryModel model, DatabaseState db) {
    List<Violation> found = new ArrayList<>();
    Map<String, Operation> last = new HashMap<>();
    List<Operation> reads =
        model.operations().stream()
            .filter(BoundedCountsChecker::isCountRead)
            .sorted(Comparator.comparingLong(Operation::sentMicros))
            .toList();
    long judged = 0;
    for (Operation r : reads) {
      String id = r.process() + ' ' + r.albumId();
      Operation before = last.get(id);
      if (before != null && before.endMicros() <= r.sentMicros()) {
        judged++;
        if (r.likes() < before.likes() || r.dislikes() < before.dislikes()) {
          found.add(
              Violation.of(
                  property(),
                  "process "
                      + r.process()
                      + " read album "
                      + r.albumId()
                      + "'s counts going"
                      + " backwards",
                  List.of(before, r)));
        }
      }
      if (before == null || r.likes() >= before.likes() && r.dislikes() >= before.dislikes()) {
        last.put(id, r);
      }
    }
    if (judged == 0) {
      return PropertyResult.unknown(property(), "no process read one album's counts twice");
    }
    // Not added to the reads judged: bounded counts judges every one of these reads already.
    return PropertyResult.of(property(), found, 0);
  }
}
