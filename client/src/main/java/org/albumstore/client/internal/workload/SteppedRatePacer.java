package org.albumstore.client.internal.workload;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stepped open model ({@code --rate-steps}): like {@link FixedRatePacer}, one schedule shared
 * by all writer threads and latency counted from the due time, but the rate changes every {@code
 * step}: R1 for the first step, R2 for the second, ... and the last rate after the last step. A run
 * that climbs the steps finds the rate where latency turns up (the knee of the curve).
 */
public final class SteppedRatePacer implements Pacer {
  private final long startNanos;
  private final double stepNanos;
  private final double[] rates;
  // firstSlot[i]: the number of slots due before step i starts.
  private final double[] firstSlot;
  private final AtomicLong nextSlot = new AtomicLong();

  public SteppedRatePacer(List<Double> rates, Duration step, long startNanos) {
    if (rates.isEmpty() || !(step.toNanos() > 0)) {
      throw new IllegalArgumentException("rate steps need rates and a step > 0");
    }
    this.startNanos = startNanos;
    this.stepNanos = step.toNanos();
    this.rates = rates.stream().mapToDouble(Double::doubleValue).toArray();
    this.firstSlot = new double[this.rates.length];
    for (int i = 1; i < this.rates.length; i++) {
      firstSlot[i] = firstSlot[i - 1] + this.rates[i - 1] * step.toNanos() / 1e9;
    }
  }

  /** When slot {@code k} (0-based, over all threads) is due, in nanoseconds after the start. */
  long dueOffsetNanos(long k) {
    int i = rates.length - 1;
    while (i > 0 && k < firstSlot[i]) {
      i--;
    }
    return (long) (i * stepNanos + (k - firstSlot[i]) * 1e9 / rates[i]);
  }

  @Override
  public long nextDue() {
    return startNanos + dueOffsetNanos(nextSlot.getAndIncrement());
  }
}
