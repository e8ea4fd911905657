package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.Operation;
import org.albumstore.client.history.Property;
import org.albumstore.client.history.PropertyResult;
import org.albumstore.client.history.Violation;

/**
 * Bounded counts: a count read never exceeds the reviews of that album that were sent before the
 * read was answered and may have been applied (acknowledged or indeterminate).
 */
final class BoundedCountsChecker implements PropertyChecker {
  @Override
  public Property property() {
    return Property.BOUNDED_COUNTS;
  }

  @Override
  public PropertyResult check(HistoryModel model, DatabaseState db) {
    List<Violation> found = new ArrayList<>();
    long judged = 0;
    for (Operation r : model.operations()) {
      if (!isCountRead(r)) {
        continue;
      }
      judged++;
      HistoryModel.Album a = model.album(r.albumId());
      bounded(r, "likes", r.likes(), a.likes, found);
      bounded(r, "dislikes", r.dislikes(), a.dislikes, found);
    }
    if (judged == 0) {
      return PropertyResult.unknown(property(), "no counts were read");
    }
    return PropertyResult.of(property(), found, judged);
  }

  private void bounded(
      Operation read,
      String counter,
      long seen,
      List<HistoryModel.Write> reviews,
      List<Violation> found) {
    List<HistoryModel.Write> possible =
        reviews.stream().filter(w -> w.mayBeApplied() && w.firstSent < read.endMicros()).toList();
    if (seen > possible.size()) {
      List<Operation> ops = new ArrayList<>();
      possible.forEach(w -> ops.addAll(w.attempts));
      ops.add(read);
      found.add(
          Violation.of(
              property(),
              String.format(
                  "read %d %s of album %s, but only %d could have been applied by then",
                  seen, counter, read.albumId(), possible.size()),
              ops));
    }
  }

  /** A {@code GET /review} answered with usable counts. */
  static boolean isCountRead(Operation o) {
    return o.type() == RequestType.GET_REVIEW && o.isSuccess() && !o.badBody();
  }
}
