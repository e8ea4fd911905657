package org.albumstore.client.internal.stats;

import java.util.Map;
import org.albumstore.client.QueueSample;
import org.albumstore.client.RequestType;

/**
 * One second of the run.
 *
 * @param elapsedSeconds seconds since the load started, at the end of this interval
 * @param intervalSeconds the interval's length (1 s, except the last, partial one)
 * @param epochMillis wall-clock time at the end of this interval
 * @param types the second's figures per request type
 * @param writes the second's figures of all writes together
 * @param queue the latest queue reading at the end of the interval
 */
public record TimelineRow(
    double elapsedSeconds,
    double intervalSeconds,
    long epochMillis,
    Map<RequestType, IntervalStats> types,
    IntervalStats writes,
    QueueSample queue) {

  /** Write requests finished per second in this interval (successes and failures). */
  public double writeRate() {
    return intervalSeconds <= 0 ? 0 : (writes.ok() + writes.failed()) / intervalSeconds;
  }

  public double rate(RequestType type) {
    IntervalStats s = types.get(type);
    return intervalSeconds <= 0 || s == null ? 0 : (s.ok() + s.failed()) / intervalSeconds;
  }
}
