package org.albumstore.client.internal.history;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.history.Property;
import org.albumstore.client.history.PropertyResult;
import org.albumstore.client.history.Violation;

/**
 * No duplicate: no counter is above the reviews the exactly-once ledger applied, which would mean a
 * review was applied more than once (a redelivery counted again). Albums cannot be: they are
 * inserted by their ID.
 */
final class NoDuplicateChecker implements PropertyChecker {
  @Override
  public Property property() {
    return Property.NO_DUPLICATE;
  }

  @Override
  public PropertyResult check(HistoryModel model, DatabaseState db) {
    if (db == null) {
      return PropertyResult.unknown(property(), "not checked: no database");
    }
    List<Violation> found = new ArrayList<>();
    for (HistoryModel.Counter c : model.counters(db)) {
      if (c.value() > c.applied()) {
        found.add(
            Violation.of(
                property(),
                String.format(
                    "album %s has %d %s, but the ledger applied %d of its reviews: applied more"
                        + " than once",
                    c.albumId(), c.value(), c.name(), c.applied()),
                c.operations()));
      }
    }
    return PropertyResult.of(property(), found, 0);
  }
}
