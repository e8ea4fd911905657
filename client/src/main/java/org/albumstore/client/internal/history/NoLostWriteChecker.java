package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.history.Property;
import org.albumstore.client.history.PropertyResult;
import org.albumstore.client.history.Violation;

/**
 * No lost write: every acknowledged album and review is in PostgreSQL, and no counter is below the
 * reviews the exactly-once ledger applied.
 */
final class NoLostWriteChecker implements PropertyChecker {
  @Override
  public Property property() {
    return Property.NO_LOST_WRITE;
  }

  @Override
  public PropertyResult check(HistoryModel model, DatabaseState db) {
    if (db == null) {
      return PropertyResult.unknown(property(), "not checked: no database");
    }
    List<Violation> found = new ArrayList<>();
    for (HistoryModel.Write w : model.writes()) {
      if (w.acknowledged() && !w.presentIn(db)) {
        found.add(
            Violation.of(
                property(), w.name() + " was acknowledged but is not in the database", w.attempts));
      }
    }
    for (HistoryModel.Counter c : model.counters(db)) {
      if (c.value() < c.applied()) {
        found.add(
            Violation.of(
                property(),
                String.format(
                    "album %s has %d %s, but the ledger applied %d of its reviews",
                    c.albumId(), c.value(), c.name(), c.applied()),
                c.operations()));
      }
    }
    return PropertyResult.of(property(), found, 0);
  }
}
