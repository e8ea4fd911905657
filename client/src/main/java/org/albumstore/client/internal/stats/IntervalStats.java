package org.albumstore.client.internal.stats;

/**
 * One type's figures for one second of the timeline.
 *
 * @param ok successful completions in the second
 * @param failed final failures in the second
 * @param p50Ms median latency of the second's successes, 0 when there were none
 * @param p99Ms 99th percentile of the second's successes, 0 when there were none
 */
public record IntervalStats(long ok, long failed, double p50Ms, double p99Ms) {
  public static final IntervalStats EMPTY = new IntervalStats(0, 0, 0, 0);
}
