package org.albumstore.client.internal.check;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.TypeStats;

/** Checks a run's thresholds against its final report rows. */
public final class Thresholds {
  private Thresholds() {}

  /**
   * @param rows every row of the report, the request types and all writes
   * @return one result per threshold, in the order given
   */
  public static List<ThresholdResult> check(List<Threshold> thresholds, List<TypeStats> rows) {
    List<ThresholdResult> out = new ArrayList<>(thresholds.size());
    for (Threshold t : thresholds) {
      TypeStats row =
          rows.stream()
              .filter(r -> r.type().equals(t.scope()))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no report row " + t.scope()));
      out.add(t.check(row));
    }
    return out;
  }

  public static boolean allPassed(List<ThresholdResult> results) {
    return results.stream().allMatch(ThresholdResult::passed);
  }
}
