package org.albumstore.client.history;

import java.util.List;

/**
 * One property's judgement with its evidence.
 *
 * @param validity valid, invalid (then {@code violations} is not empty) or unknown
 * @param why why it is unknown, or null
 * @param violations what broke it, each with the operations that show it
 * @param judged the operations (reads) the property applied to; 0 for the write properties
 * @param unavailable of those, answered 503: honest unavailability, not a violation
 * @param unanswered of those, timed out or failed with an I/O error
 */
public record PropertyResult(
    Property property,
    Validity validity,
    String why,
    List<Violation> violations,
    long judged,
    long unavailable,
    long unanswered) {
  public PropertyResult {
    violations = List.copyOf(violations);
  }

  /** Valid when nothing broke it, else invalid. */
  public static PropertyResult of(Property p, List<Violation> violations, long judged) {
    return new PropertyResult(
        p,
        violations.isEmpty() ? Validity.VALID : Validity.INVALID,
        null,
        violations,
        judged,
        0,
        0);
  }

  public static PropertyResult unknown(Property p, String why) {
    return new PropertyResult(p, Validity.UNKNOWN, why, List.of(), 0, 0, 0);
  }
}
