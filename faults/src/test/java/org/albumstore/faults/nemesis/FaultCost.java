package org.albumstore.faults.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What each kind of fault cost at the run's load, one row per kind, for {@code fault-cost.md}: the
 * longest time without a 200 (the worst of its faults), the write p99 during its faults (the worst)
 * against the run's p99 outside every fault, and the backlog it left at its heal with the time that
 * took to drain (the worst; "not drained" when a fault's backlog had not come back down by the
 * run's end). Faults that overlap share their window: each is charged with all of it.
 */
public final class FaultCost {
  private FaultCost() {}

  /** One fault's cost: what the clients saw, and what the queue held. */
  public record Row(FaultImpact impact, BacklogProbe.Backlog backlog) {}

  public static List<String> table(List<Row> rows, Duration quietP99, String load) {
    Map<FaultKind, List<Row>> byKind = new EnumMap<>(FaultKind.class);
    rows.forEach(
        r -> byKind.computeIfAbsent(r.impact().fault().kind(), k -> new ArrayList<>()).add(r));
    List<String> out = new ArrayList<>();
    out.add("load: " + load + "; write p99 outside every fault " + quietP99.toMillis() + " ms");
    out.add("");
    out.add(
        "| fault | n | longest without a 200 (s) | write p99 during (ms) | backlog at heal"
            + " (messages) | drained after heal (s) |");
    out.add("|---|---|---|---|---|---|");
    byKind.forEach((kind, of) -> out.add(row(kind, of)));
    return out;
  }

  private static String row(FaultKind kind, List<Row> of) {
    long longest = 0;
    long p99 = 0;
    long backlog = -1;
    long drain = 0;
    int undrained = 0;
    for (Row r : of) {
      longest = Math.max(longest, r.impact().longestWithoutOk().toMillis());
      p99 = Math.max(p99, r.impact().writeP99().toMillis());
      backlog = Math.max(backlog, r.backlog().atHeal());
      if (r.backlog().drain().isPresent()) {
        drain = Math.max(drain, r.backlog().drain().get().toMillis());
      } else {
        undrained++;
      }
    }
    return String.format(
        Locale.ROOT,
        "| %s | %d | %.1f | %d | %s | %.1f%s |",
        kind,
        of.size(),
        longest / 1000.0,
        p99,
        backlog < 0 ? "?" : Long.toString(backlog),
        drain / 1000.0,
        undrained == 0 ? "" : " (" + undrained + " not drained)");
  }
}
