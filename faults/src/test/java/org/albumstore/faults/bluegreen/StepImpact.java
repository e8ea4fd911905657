package org.albumstore.faults.bluegreen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Operation;
import org.albumstore.faults.nemesis.WindowImpact;

/**
 * What one step of the switch cost the clients, read from the run's operation history over the
 * step's window (from its start to the next step's start, so that what a step sets off is charged
 * to it; the last to the load's end): the longest time in which no attempt got a 200 and, apart, no
 * write did (reads never touch the broker, so they would hide a publishing gap), the write
 * attempts' p99 (from each attempt's send to its answer: what a request cost, not how far the
 * client's schedule fell behind), the writes acknowledged per second, the 503s, the other failures,
 * and the retries.
 *
 * <p>The gaps are clipped to the window: a gap that spans two steps is charged to each for its
 * part.
 *
 * @param fromMicros the window's start, in the history's time (µs since its origin)
 */
public record StepImpact(
    long fromMicros,
    long toMicros,
    Duration longestWithoutOk,
    Duration longestWithoutWriteOk,
    Duration writeP99,
    long writes,
    double acknowledgedPerSecond,
    long answered503,
    long failed,
    long retries) {

  /** The cost of the window {@code [fromMicros, toMicros]} of {@code history}. */
  public static StepImpact of(History history, long fromMicros, long toMicros) {
    List<Long> oks = new ArrayList<>();
    List<Long> writeOks = new ArrayList<>();
    List<Long> writeMicros = new ArrayList<>();
    Set<String> keysSeen = new HashSet<>();
    for (Operation o : history.operations()) {
      if (o.key() != null && o.sentMicros() < fromMicros) {
        keysSeen.add(o.key());
      }
    }
    long answered503 = 0;
    long failed = 0;
    long retries = 0;
    long acknowledged = 0;
    for (Operation o : history.operations()) {
      boolean inWindow = o.endMicros() > fromMicros && o.endMicros() <= toMicros;
      if (o.isSuccess() && o.key() != null && inWindow) {
        acknowledged++;
      }
      if (o.isSuccess()) {
        oks.add(o.endMicros());
        if (o.key() != null) {
          writeOks.add(o.endMicros());
        }
      }
      if (o.sentMicros() < fromMicros || o.sentMicros() > toMicros) {
        continue;
      }
      if (o.key() != null) {
        writeMicros.add(o.endMicros() - o.sentMicros());
        if (!keysSeen.add(o.key())) {
          retries++;
        }
      }
      if (o.status() == 503) {
        answered503++;
      } else if (!o.isSuccess()) {
        failed++;
      }
    }
    return new StepImpact(
        fromMicros,
        toMicros,
        longestGap(oks, fromMicros, toMicros),
        longestGap(writeOks, fromMicros, toMicros),
        WindowImpact.p99(writeMicros),
        writeMicros.size(),
        toMicros > fromMicros ? acknowledged * 1e6 / (toMicros - fromMicros) : 0,
        answered503,
        failed,
        retries);
  }

  /** The longest stretch of {@code [from, to]} holding none of {@code times}. */
  static Duration longestGap(List<Long> times, long from, long to) {
    List<Long> sorted = new ArrayList<>(times);
    sorted.sort(null);
    long longest = 0;
    long previous = from;
    for (long t : sorted) {
      if (t <= from) {
        continue;
      }
      if (t > to) {
        break;
      }
      longest = Math.max(longest, t - previous);
      previous = t;
    }
    longest = Math.max(longest, to - previous);
    return Duration.ofNanos(longest * 1_000);
  }
}
