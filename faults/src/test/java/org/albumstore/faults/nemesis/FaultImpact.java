package org.albumstore.faults.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Operation;

/**
 * What each fault of a schedule cost the clients, read from the run's operation history: over the
 * fault and the {@value #RECOVERY_SECONDS} s after its heal, the longest time in which no attempt
 * got a 200, the 503s, the other failed attempts (timeouts, I/O errors, other statuses) and the
 * retries (attempts of a write whose key had been sent before). Faults that overlap share attempts:
 * each is charged with everything in its window.
 *
 * @param longestWithoutOk the longest gap between two 200s in the window (from its start to the
 *     first 200 too; to its end when none came)
 * @param writeP99 the 99th percentile of the write attempts sent in the window, from send to answer
 *     or failure
 */
public record FaultImpact(
    Fault fault,
    Duration longestWithoutOk,
    long answered503,
    long failed,
    long retries,
    Duration writeP99) {
  static final int RECOVERY_SECONDS = 10;

  /**
   * @param loadStartMicros the load's start in the history's time (µs since its origin): the
   *     schedule's times count from there
   */
  public static List<FaultImpact> of(
      NemesisSchedule schedule, History history, long loadStartMicros) {
    List<FaultImpact> out = new ArrayList<>();
    for (Fault f : schedule.faults()) {
      long from = loadStartMicros + f.start().toNanos() / 1_000;
      long to = loadStartMicros + (f.heal().plusSeconds(RECOVERY_SECONDS)).toNanos() / 1_000;
      out.add(measure(f, history.operations(), from, to));
    }
    return out;
  }

  private static FaultImpact measure(Fault f, List<Operation> ops, long from, long to) {
    WindowImpact w = WindowImpact.measure(ops, from, to);
    return new FaultImpact(
        f, w.longestWithoutOk(), w.answered503(), w.failed(), w.retries(), w.writeP99());
  }

  /**
   * The 99th percentile of the write attempts sent outside every fault's window (its recovery
   * included): what a write costs when nothing is broken, to set each fault's against.
   */
  public static Duration quietWriteP99(
      NemesisSchedule schedule, History history, long loadStartMicros) {
    List<long[]> windows = new ArrayList<>();
    for (Fault f : schedule.faults()) {
      long from = loadStartMicros + f.start().toNanos() / 1_000;
      long to = loadStartMicros + (f.heal().plusSeconds(RECOVERY_SECONDS)).toNanos() / 1_000;
      windows.add(new long[] {from, to});
    }
    return WindowImpact.writeP99Outside(history, windows);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s | longest without a 200 %.1f s, 503s %d, other failures %d, retries %d, write p99"
            + " %d ms",
        fault,
        longestWithoutOk.toMillis() / 1000.0,
        answered503,
        failed,
        retries,
        writeP99.toMillis());
  }
}
