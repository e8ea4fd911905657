package org.albumstore.faults.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Operation;

/**
 * What the clients saw in one window of a run's operation history (a fault and its recovery, a step
 * of an upgrade): the longest time in which no attempt got a 200, the 503s, the other failed
 * attempts (timeouts, I/O errors, other statuses), the retries (attempts of a write whose key had
 * been sent before) and the write attempts' 99th percentile.
 *
 * @param longestWithoutOk the longest gap between two 200s in the window (from its start to the
 *     first 200 too; to its end when none came)
 * @param writeP99 the 99th percentile of the write attempts sent in the window, from send to answer
 *     or failure
 */
public record WindowImpact(
    Duration longestWithoutOk, long answered503, long failed, long retries, Duration writeP99) {

  /** The attempts sent from {@code fromMicros} to {@code toMicros}, in the history's time. */
  public static WindowImpact of(History history, long fromMicros, long toMicros) {
    return measure(history.operations(), fromMicros, toMicros);
  }

  static WindowImpact measure(List<Operation> ops, long from, long to) {
    Set<String> keysSeen = new HashSet<>();
    List<Long> oks = new ArrayList<>();
    List<Long> writeMicros = new ArrayList<>();
    long answered503 = 0;
    long failed = 0;
    long retries = 0;
    for (Operation o : ops) { // in completion order, roughly: the gaps below sort their own times
      if (o.key() != null && o.sentMicros() < from) {
        keysSeen.add(o.key());
      }
    }
    for (Operation o : ops) {
      if (o.sentMicros() < from || o.sentMicros() > to) {
        continue;
      }
      if (o.key() != null && !keysSeen.add(o.key())) {
        retries++;
      }
      if (o.key() != null) {
        writeMicros.add(o.endMicros() - o.sentMicros());
      }
      if (o.isSuccess()) {
        oks.add(o.endMicros());
      } else if (o.status() == 503) {
        answered503++;
      } else {
        failed++;
      }
    }
    oks.sort(null);
    long longest = 0;
    long previous = from;
    for (long t : oks) {
      longest = Math.max(longest, t - previous);
      previous = Math.max(previous, t);
    }
    longest = Math.max(longest, oks.isEmpty() ? to - from : 0);
    return new WindowImpact(
        Duration.ofNanos(longest * 1_000), answered503, failed, retries, p99(writeMicros));
  }

  /**
   * The 99th percentile of the write attempts sent outside every window of {@code windows} (each
   * {from, to} in the history's µs): what a write costs when nothing is happening, to set each
   * window's against.
   */
  public static Duration writeP99Outside(History history, List<long[]> windows) {
    List<Long> micros = new ArrayList<>();
    for (Operation o : history.operations()) {
      if (o.key() == null) {
        continue;
      }
      boolean inside = false;
      for (long[] w : windows) {
        inside |= o.sentMicros() >= w[0] && o.sentMicros() <= w[1];
      }
      if (!inside) {
        micros.add(o.endMicros() - o.sentMicros());
      }
    }
    return p99(micros);
  }

  /** Nearest rank; zero for no values. */
  public static Duration p99(List<Long> micros) {
    if (micros.isEmpty()) {
      return Duration.ZERO;
    }
    List<Long> sorted = new ArrayList<>(micros);
    sorted.sort(null);
    int rank = (int) Math.ceil(0.99 * sorted.size()) - 1;
    return Duration.ofNanos(sorted.get(Math.max(0, rank)) * 1_000);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "longest without a 200 %.1f s, 503s %d, other failures %d, retries %d, write p99 %d ms",
        longestWithoutOk.toMillis() / 1000.0,
        answered503,
        failed,
        retries,
        writeP99.toMillis());
  }
}
