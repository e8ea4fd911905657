package org.albumstore.client.history;

import java.util.List;

/**
 * One broken promise, with the operations that show it.
 *
 * @param what what was wrong, in words
 * @param operations the attempts involved, in the history's order
 */
record Violation(Property property, String what, List<Operation> operations) {
  Violation {
    operations = List.copyOf(operations);
  }
}
