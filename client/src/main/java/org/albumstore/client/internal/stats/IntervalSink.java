package org.albumstore.client.internal.stats;

/** Takes each closed interval of the timeline, on the timeline's thread. */
public interface IntervalSink {
  /**
   * @param endSeconds the interval's end, seconds since the load started
   * @param tick the interval; its histograms are valid during this call only
   */
  void onInterval(double endSeconds, double intervalSeconds, RunStatistics.Tick tick);
}
