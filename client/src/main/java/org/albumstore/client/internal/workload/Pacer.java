package org.albumstore.client.internal.workload;

/**
 * When may the next request go? In the closed model (the default) at once: each thread sends when
 * its previous request is done. In the open model ({@link FixedRatePacer}) at the next slot of a
 * fixed schedule shared by all threads.
 */
public interface Pacer {
  /** The closed model: never waits; the request is due now. */
  Pacer UNPACED = System::nanoTime;

  /**
   * Takes the next slot without waiting for it: what a sender on an event loop schedules its send
   * for.
   *
   * @return when the next request is due ({@link System#nanoTime()}): latency is measured from here
   */
  long nextDue();

  /**
   * Waits until the next request may be sent.
   *
   * @return when it was due ({@link System#nanoTime()}): latency is measured from here
   */
  default long awaitNext() throws InterruptedException {
    return FixedRatePacer.awaitUntil(nextDue());
  }
}
