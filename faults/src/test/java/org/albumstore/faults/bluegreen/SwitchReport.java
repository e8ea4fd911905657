package org.albumstore.faults.bluegreen;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.albumstore.client.history.History;
import org.albumstore.faults.nemesis.BacklogProbe;

/**
 * The switch's cost, step by step, on the history's clock: each step's start and end (what it did),
 * its window (to the next step's start; the last to the load's end) and, over the window, what it
 * cost the clients ({@link StepImpact}) and the ready messages on each broker (the most, and the
 * last sample). Written as {@code blue-green.md} beside the journal.
 *
 * <p>The clocks: the steps and the probes count from the switch's origin ({@link
 * BlueGreenSwitch#originNanos}; a probe starts within a millisecond of it), the history from its
 * own; the two are tied by their wall-clock origins, to the millisecond.
 */
public final class SwitchReport {
  /** One row: a step, its window, its cost, and both backlogs over the window. */
  public record Row(
      BlueGreenSwitch.Step step,
      long startMicros,
      long endMicros,
      StepImpact impact,
      Optional<Backlog> blue,
      Optional<Backlog> green) {}

  /** The most ready messages in a window, and the last sample of it. */
  public record Backlog(long max, long atEnd) {
    @Override
    public String toString() {
      return max + " / " + atEnd;
    }
  }

  private SwitchReport() {}

  /**
   * The rows of {@code steps}, each window clipped to the load: from its first request sent to its
   * last answer (history time), so that neither the client's start nor its end counts as a gap.
   *
   * @param offsetMicros the switch's origin on the history's clock
   */
  public static List<Row> rows(
      List<BlueGreenSwitch.Step> steps, BlueGreenSwitch sw, History history, long offsetMicros) {
    long loadStart = history.operations().stream().mapToLong(o -> o.sentMicros()).min().orElse(0);
    long loadEnd = history.operations().stream().mapToLong(o -> o.endMicros()).max().orElse(0);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      BlueGreenSwitch.Step s = steps.get(i);
      long start = micros(s.startNanos(), sw, offsetMicros);
      long end = micros(s.endNanos(), sw, offsetMicros);
      long next =
          i + 1 < steps.size() ? micros(steps.get(i + 1).startNanos(), sw, offsetMicros) : loadEnd;
      long from = Math.min(Math.max(start, loadStart), loadEnd);
      long to = Math.max(from, Math.min(next, loadEnd));
      StepImpact impact = StepImpact.of(history, from, to);
      long fromMillis = (from - offsetMicros) / 1_000;
      long toMillis = (to - offsetMicros) / 1_000;
      rows.add(
          new Row(
              s,
              start,
              end,
              impact,
              backlog(sw.backlog(sw.blue()), fromMillis, toMillis),
              backlog(sw.backlog(sw.green()), fromMillis, toMillis)));
    }
    return rows;
  }

  private static long micros(long nanos, BlueGreenSwitch sw, long offsetMicros) {
    return offsetMicros + (nanos - sw.originNanos()) / 1_000;
  }

  static Optional<Backlog> backlog(List<BacklogProbe.Sample> samples, long from, long to) {
    long max = -1;
    long last = -1;
    for (BacklogProbe.Sample s : samples) {
      if (s.atMillis() >= from && s.atMillis() <= to) {
        max = Math.max(max, s.messages());
        last = s.messages();
      }
    }
    return max < 0 ? Optional.empty() : Optional.of(new Backlog(max, last));
  }

  /** The table, after {@code header} lines. */
  public static List<String> table(List<String> header, List<Row> rows) {
    List<String> out = new ArrayList<>(header);
    out.add("");
    out.add(
        "| step | start (s) | end (s) | window (s) | longest without a 200 (ms) | without a"
            + " write's 200 (ms) | write p99 (ms) | writes sent | writes acknowledged/s | 503s | other failures | retries"
            + " | blue backlog max / at end | green backlog max / at end |");
    out.add("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Row r : rows) {
      StepImpact i = r.impact();
      out.add(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.1f | %.1f-%.1f | %d | %d | %d | %d | %.0f | %d | %d | %d | %s | %s |",
              r.step().name(),
              r.startMicros() / 1e6,
              r.endMicros() / 1e6,
              i.fromMicros() / 1e6,
              i.toMicros() / 1e6,
              i.longestWithoutOk().toMillis(),
              i.longestWithoutWriteOk().toMillis(),
              i.writeP99().toMillis(),
              i.writes(),
              i.acknowledgedPerSecond(),
              i.answered503(),
              i.failed(),
              i.retries(),
              r.blue().map(Backlog::toString).orElse("-"),
              r.green().map(Backlog::toString).orElse("-")));
    }
    return out;
  }

  /** One line per step for the journal. */
  public static String line(Row r) {
    StepImpact i = r.impact();
    return String.format(
        Locale.ROOT,
        "%-38s %6.1f s to %6.1f s (window %.1f-%.1f s): %s | longest without a 200 %d ms, without"
            + " a write's 200 %d ms, write p99 %d ms, %d writes, %.0f acknowledged/s, 503s %d, other failures %d,"
            + " retries %d, backlog blue %s, green %s",
        r.step().name(),
        r.startMicros() / 1e6,
        r.endMicros() / 1e6,
        i.fromMicros() / 1e6,
        i.toMicros() / 1e6,
        r.step().note(),
        i.longestWithoutOk().toMillis(),
        i.longestWithoutWriteOk().toMillis(),
        i.writeP99().toMillis(),
        i.writes(),
        i.acknowledgedPerSecond(),
        i.answered503(),
        i.failed(),
        i.retries(),
        r.blue().map(Backlog::toString).orElse("-"),
        r.green().map(Backlog::toString).orElse("-"));
  }
}
