package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.history.Property;
import org.albumstore.client.history.PropertyResult;
import org.albumstore.client.history.Violation;

/**
 * No phantom: nothing is in PostgreSQL that no request asked for. A refused write (every attempt a
 * 4xx) must not be there, and no counter may exceed the reviews of its album that may have been
 * applied (acknowledged or indeterminate).
 */
final class NoPhantomChecker implements PropertyChecker {
  @Override
  public Property property() {
    return Property.NO_PHANTOM;
  }

  @Override
  public PropertyResult check(HistoryModel model, DatabaseState db) {
    if (db == null) {
      return PropertyResult.unknown(property(), "not checked: no database");
    }
    List<Violation> found = new ArrayList<>();
    for (HistoryModel.Write w : model.writes()) {
      if (w.refused() && w.presentIn(db)) {
        found.add(
            Violation.of(
                property(), w.name() + " was refused (4xx) but is in the database", w.attempts));
      }
    }
    for (HistoryModel.Counter c : model.counters(db)) {
      if (c.value() > c.possible()) {
        found.add(
            Violation.of(
                property(),
                String.format(
                    "album %s has %d %s, but only %d such reviews were asked for (acknowledged or"
                        + " indeterminate)",
                    c.albumId(), c.value(), c.name(), c.possible()),
                c.operations()));
      }
    }
    return PropertyResult.of(property(), found, 0);
  }
}
