package org.albumstore.client.internal.workload;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ramped open model ({@code --rate-ramp FROM,TO}): like {@link FixedRatePacer}, one schedule
 * shared by all writer threads and latency counted from the due time, but the rate rises (or falls)
 * linearly from {@code from} to {@code to} over {@code ramp}, and stays at {@code to} after. Where
 * a stepped run shows a few levels, a ramp shows the whole curve.
 */
public final class RampRatePacer implements Pacer {
  private final long startNanos;
  private final double from;
  private final double to;
  private final double seconds;
  private final AtomicLong nextSlot = new AtomicLong();

  public RampRatePacer(double from, double to, Duration ramp, long startNanos) {
    if (!(from > 0) || !(to > 0) || !(ramp.toNanos() > 0)) {
      throw new IllegalArgumentException("a ramp needs rates > 0 and a duration > 0");
    }
    this.startNanos = startNanos;
    this.from = from;
    this.to = to;
    this.seconds = ramp.toNanos() / 1e9;
  }

  /**
   * When slot {@code k} (0-based, over all threads) is due, in nanoseconds after the start: the
   * time t at which the slots due so far, {@code from t + slope t² / 2}, reach k.
   */
  long dueOffsetNanos(long k) {
    double slope = (to - from) / seconds;
    double inRamp = from * seconds + slope * seconds * seconds / 2;
    double t;
    if (k >= inRamp) {
      t = seconds + (k - inRamp) / to;
    } else if (slope == 0) {
      t = k / from;
    } else {
      t = (-from + Math.sqrt(from * from + 2 * slope * k)) / slope;
    }
    return (long) (t * 1e9);
  }

  @Override
  public long nextDue() {
    return startNanos + dueOffsetNanos(nextSlot.getAndIncrement());
  }
}
