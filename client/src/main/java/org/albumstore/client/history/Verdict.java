package org.albumstore.client.history;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker found. Built by {@link #judged} or {@link #notJudged}; the counts come in two
 * small groups, the writes' ({@link Writes}) and the reads' (summed from {@code results}), so no
 * call passes a row of numbers by position.
 *
 * @param judged false when the history was not whole (then nothing else is meaningful)
 * @param why why it was not judged, or null
 * @param databaseChecked whether the write properties (lost, duplicate, phantom) were checked
 * @param operations attempts in the history
 * @param writes the logical writes by outcome
 * @param violations every violation found
 * @param results each property's judgement (valid, invalid or unknown, with why); empty when not
 *     judged
 */
public record Verdict(
    boolean judged,
    String why,
    boolean databaseChecked,
    long operations,
    Writes writes,
    List<Violation> violations,
    Map<Property, PropertyResult> results) {
  public static final int SHOWN = 10;

  public Verdict {
    violations = List.copyOf(violations);
    results = results.isEmpty() ? Map.of() : new EnumMap<>(results);
  }

  /**
   * The logical writes (one idempotency key each) by outcome.
   *
   * @param total every logical write, and of them:
   * @param acknowledged got a 200
   * @param refused every attempt got a 4xx: known not applied
   * @param recovered of the indeterminate, those the database holds: applied after all (0 when the
   *     database was not read)
   */
  public record Writes(long total, long acknowledged, long refused, long recovered) {
    static final Writes NONE = new Writes(0, 0, 0, 0);

    /** Neither acknowledged nor refused: may or may not have been applied. */
    public long indeterminate() {
      return total - acknowledged - refused;
    }
  }

  /**
   * The reads the properties judged, summed over {@code results}.
   *
   * @param judged reads that a property applied to
   * @param unavailable of {@code GET /albums} after its POST's 200: answered 503 (honest, not a
   *     violation)
   * @param unanswered of those: timed out or failed with an I/O error
   */
  public record Reads(long judged, long unavailable, long unanswered) {}

  /** A judged history: with {@code databaseChecked} false, the write properties are unknown. */
  public static Verdict judged(
      long operations,
      boolean databaseChecked,
      Writes writes,
      List<Violation> violations,
      Map<Property, PropertyResult> results) {
    return new Verdict(true, null, databaseChecked, operations, writes, violations, results);
  }

  public static Verdict notJudged(String why, long operations) {
    return new Verdict(false, why, false, operations, Writes.NONE, List.of(), Map.of());
  }

  /** The reads every property applied to, and how many of them went unanswered. */
  public Reads reads() {
    long judgedReads = 0;
    long unavailable = 0;
    long unanswered = 0;
    for (PropertyResult r : results.values()) {
      judgedReads += r.judged();
      unavailable += r.unavailable();
      unanswered += r.unanswered();
    }
    return new Reads(judgedReads, unavailable, unanswered);
  }

  /** Judged, and no violation (a property that could not tell, unknown, is no violation). */
  public boolean isClean() {
    return judged && violations.isEmpty();
  }

  public long count(Property p) {
    return violations.stream().filter(v -> v.property() == p).count();
  }

  /** The property's judgement: unknown when the history was not judged. */
  public Validity validity(Property p) {
    PropertyResult r = results.get(p);
    return r == null ? Validity.UNKNOWN : r.validity();
  }

  /** The verdict, then per property its judgement and the first {@value #SHOWN} violations. */
  public void print(PrintStream out) {
    if (!judged) {
      out.println("history: not judged: " + why);
      return;
    }
    Reads reads = reads();
    out.printf(
        "history: %d attempts; %d writes: %d acknowledged, %d refused (4xx), %d indeterminate%s;"
            + " %d reads judged, %d answered 503 after the album's 200, %d unanswered%n",
        operations,
        writes.total(),
        writes.acknowledged(),
        writes.refused(),
        writes.indeterminate(),
        databaseChecked ? " (" + writes.recovered() + " of them recovered: applied after all)" : "",
        reads.judged(),
        reads.unavailable(),
        reads.unanswered());
    for (Property p : Property.values()) {
      out.printf("  %-18s %s%n", p.label(), judgement(p));
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

  private String judgement(Property p) {
    PropertyResult r = results.get(p);
    return switch (validity(p)) {
      case VALID -> "ok";
      case INVALID -> count(p) + " violations";
      case UNKNOWN -> "unknown (" + (r == null ? "not judged" : r.why()) + ")";
    };
  }
}
