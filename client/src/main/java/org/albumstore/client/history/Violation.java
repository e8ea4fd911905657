package org.albumstore.client.history;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * One broken promise, with the operations that show it.
 *
 * @param what what was wrong, in words
 * @param operations the attempts involved, in the history's order
 */
public record Violation(Property property, String what, List<Operation> operations) {
  public Violation {
    operations = List.copyOf(operations);
  }

  /** A violation naming {@code operations} in the history's order. */
  public static Violation of(Property property, String what, Collection<Operation> operations) {
    return new Violation(
        property,
        what,
        operations.stream().sorted(Comparator.comparingLong(Operation::line)).toList());
  }
}
