package org.albumstore.client.internal.stats;

/**
 * Converts {@link System#nanoTime()} readings (monotonic, used for every latency) into wall-clock
 * milliseconds for the CSV and the timeline, from one pair of readings taken at start. Wall-clock
 * time alone would be wrong for latencies: it can jump (NTP) in the middle of a request.
 */
public record RunClock(long originNanos, long originEpochMillis) {
  public static RunClock start() {
    return new RunClock(System.nanoTime(), System.currentTimeMillis());
  }

  public long epochMillis(long nanos) {
    return originEpochMillis + Math.floorDiv(nanos - originNanos, 1_000_000L);
  }
}
