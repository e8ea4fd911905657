package org.albumstore.client.internal.workload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The open model: requests are due at a fixed rate from a schedule shared by all writer threads,
 * and each request's latency is measured from its due time, not from when a thread got round to
 * sending it.
 *
 * <p>Why: in the closed model a slow server slows the client down, so the requests that would have
 * been sent during a stall are never sent and never measured ("coordinated omission"), and the
 * percentiles look better than what a user arriving at a fixed rate would see. Here, when every
 * thread is busy, the slots pile up in the past and the waiting shows in the latency. Give enough
 * threads that they can keep up at the server's normal speed.
 */
public final class FixedRatePacer implements Pacer {
  private final long startNanos;
  private final double periodNanos;
  private final AtomicLong nextSlot = new AtomicLong();

  /**
   * @param perSecond requests per second across all threads
   */
  public FixedRatePacer(double perSecond, long startNanos) {
    if (!(perSecond > 0)) {
      throw new IllegalArgumentException("rate must be > 0, was " + perSecond);
    }
    this.startNanos = startNanos;
    this.periodNanos = 1e9 / perSecond;
  }

  @Override
  public long nextDue() {
    return startNanos + (long) (nextSlot.getAndIncrement() * periodNanos);
  }

  /** Parks until {@code due} ({@link System#nanoTime()}) and returns it. */
  static long awaitUntil(long due) throws InterruptedException {
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
    }
    return due;
  }
}
