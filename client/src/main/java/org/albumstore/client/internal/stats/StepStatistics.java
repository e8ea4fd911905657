package org.albumstore.client.internal.stats;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Per-step write figures of a {@code --rate-steps} run, built from the timeline's one-second
 * intervals: each interval goes to the step its midpoint falls in (steps are whole seconds long and
 * the timeline ticks once a second from the load's start, so intervals rarely straddle a step).
 * Percentiles come from the merged interval histograms, never from averaged percentiles.
 */
public final class StepStatistics implements IntervalSink {
  private final List<Double> rates;
  private final double stepSeconds;
  private final Histogram[] histograms;
  private final long[] failed;
  private final double[] seconds;

  public StepStatistics(List<Double> rates, double stepSeconds) {
    this.rates = List.copyOf(rates);
    this.stepSeconds = stepSeconds;
    this.histograms = new Histogram[rates.size()];
    this.failed = new long[rates.size()];
    this.seconds = new double[rates.size()];
    for (int i = 0; i < histograms.length; i++) {
      histograms[i] = Latencies.newHistogram();
    }
  }

  @Override
  public void onInterval(double endSeconds, double intervalSeconds, RunStatistics.Tick tick) {
    add(endSeconds, intervalSeconds, tick.writesHistogram(), tick.writes().failed());
  }

  /**
   * Adds one interval of writes.
   *
   * @param endSeconds the interval's end, seconds since the load started
   */
  synchronized void add(
      double endSeconds, double intervalSeconds, Histogram writes, long writesFailed) {
    double mid = endSeconds - intervalSeconds / 2;
    // After the last step (a longer --duration) the last rate goes on: it counts to that step.
    int i = (int) Math.min(rates.size() - 1, Math.max(0, Math.floor(mid / stepSeconds)));
    histograms[i].add(writes);
    failed[i] += writesFailed;
    seconds[i] += intervalSeconds;
  }

  public synchronized List<StepRow> rows() {
    List<StepRow> out = new ArrayList<>(rates.size());
    for (int i = 0; i < rates.size(); i++) {
      Histogram h = histograms[i];
      long ok = h.getTotalCount();
      out.add(
          new StepRow(
              i + 1,
              rates.get(i),
              i * stepSeconds,
              (i + 1) * stepSeconds,
              ok,
              failed[i],
              seconds[i] > 0 ? ok / seconds[i] : 0,
              Latencies.percentileMs(h, 50.0),
              Latencies.percentileMs(h, 99.0),
              Latencies.percentileMs(h, 99.9)));
    }
    return out;
  }
}
