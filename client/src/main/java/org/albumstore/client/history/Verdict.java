package org.albumstore.client.history;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker found.
 *
 * @param judged false when the history was not whole (then nothing else is meaningful)
 * @param why why it was not judged, or null
 * @param databaseChecked whether the write properties (lost, phantom) were checked
 * @param operations attempts in the history
 * @param writes logical writes (one idempotency key each), and of them:
 * @param acknowledged got a 200
 * @param refused every attempt got a 4xx: known not applied
 * @param indeterminate neither: may or may not have been applied
 * @param readsJudged reads that a property applied to
 * @param unavailable of {@code GET /albums} after its POST's 200: answered 503 (honest, not a
 *     violation)
 * @param unanswered of those: timed out or failed with an I/O error
 * @param violations every violation found
 */
public record Verdict(
    boolean judged,
    String why,
    boolean databaseChecked,
    long operations,
    long writes,
    long acknowledged,
    long refused,
    long indeterminate,
    long readsJudged,
    long unavailable,
    long unanswered,
    List<Violation> violations) {
  public static final int SHOWN = 10;

  public Verdict {
    violations = List.copyOf(violations);
  }

  static Verdict notJudged(String why, long operations) {
    return new Verdict(false, why, false, operations, 0, 0, 0, 0, 0, 0, 0, List.of());
  }

  /** Judged, and no violation. */
  public boolean isClean() {
    return judged && violations.isEmpty();
  }

  public long count(Property p) {
    return violations.stream().filter(v -> v.property() == p).count();
  }

  /** The verdict, then per property its count and the first {@value #SHOWN} violations. */
  public void print(PrintStream out) {
    if (!judged) {
      out.println("history: not judged: " + why);
      return;
    }
    out.printf(
        "history: %d attempts; %d writes: %d acknowledged, %d refused (4xx), %d indeterminate;"
            + " %d reads judged, %d answered 503 after the album's 200, %d unanswered%n",
        operations,
        writes,
        acknowledged,
        refused,
        indeterminate,
        readsJudged,
        unavailable,
        unanswered);
    Map<Property, Long> counts = new EnumMap<>(Property.class);
    for (Property p : Property.values()) {
      counts.put(p, count(p));
    }
    for (Property p : Property.values()) {
      boolean skipped =
          !databaseChecked && (p == Property.NO_LOST_WRITE || p == Property.NO_PHANTOM);
      out.printf(
          "  %-18s %s%n",
          p.label(),
          skipped
              ? "not checked (no database)"
              : counts.get(p) == 0 ? "ok" : counts.get(p) + " violations");
      violations.stream()
          .filter(v -> v.property() == p)
          .limit(SHOWN)
          .forEach(
              v -> {
                out.println("    " + v.what());
                v.operations().forEach(o -> out.println("      " + o));
              });
    }
    out.println(
        isClean()
            ? "history: no violation" + (databaseChecked ? "" : " (reads only)")
            : "history: " + violations.size() + " VIOLATIONS");
  }
}
