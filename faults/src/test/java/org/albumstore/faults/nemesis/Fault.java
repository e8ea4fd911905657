package org.albumstore.faults.nemesis;

import java.time.Duration;
import java.util.Locale;

/**
 * One fault of a schedule: what, on which instance of its tier, when it starts and when it is
 * healed, both from the start of the load.
 *
 * @param target the node, server or consumer, by index
 */
public record Fault(FaultKind kind, int target, Duration start, Duration heal) {
  public Fault {
    if (heal.compareTo(start) <= 0) {
      throw new IllegalArgumentException(
          "a fault must be healed after it starts: " + start + ", " + heal);
    }
  }

  /** Whether the two are broken at the same moment. */
  public boolean overlaps(Fault other) {
    return start.compareTo(other.heal) < 0 && other.start.compareTo(heal) < 0;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%6.1f s - %6.1f s  %-13s #%d  (%s)",
        start.toMillis() / 1000.0,
        heal.toMillis() / 1000.0,
        kind,
        target,
        kind.description());
  }
}
