package org.albumstore.client.internal.broker;

import java.time.Duration;
import org.albumstore.client.QueueSample;
import org.albumstore.client.internal.http.Sleeper;

/**
 * Waits, bounded, for the write queue to empty after the load: the moment from which every
 * acknowledged write should be visible to the GETs.
 *
 * <p>Only readings taken after the load ended count, so a reading of an empty queue from before the
 * last writes cannot end the wait early.
 */
public final class DrainWaiter {
  private static final Duration POLL = Duration.ofMillis(200);

  private DrainWaiter() {}

  public enum Status {
    /** Depth 0 and nothing unacknowledged (management API). */
    DRAINED,
    /** No ready messages; messages in flight at consumers are invisible (AMQP fallback). */
    READY_EMPTY,
    TIMED_OUT,
    /** No queue source. */
    UNKNOWN,
    /** The wait was not made (verification off or run stopped). */
    NOT_AWAITED
  }

  /**
   * @param status how the wait ended
   * @param seconds from the end of the load to the first empty reading; null unless emptied
   */
  public record Result(Status status, Double seconds) {
    public boolean emptied() {
      return status == Status.DRAINED || status == Status.READY_EMPTY;
    }
  }

  public static Result await(
      BrokerSampler sampler, long loadEndEpochMillis, Duration timeout, Sleeper sleeper)
      throws InterruptedException {
    if (!sampler.available()) {
      return new Result(Status.UNKNOWN, null);
    }
    boolean readyOnly = AmqpPassiveProbe.SOURCE.equals(sampler.source());
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      QueueSample s = sampler.latest();
      if (s.epochMillis() >= loadEndEpochMillis && s.depthKnown()) {
        double seconds = Math.max(0, s.epochMillis() - loadEndEpochMillis) / 1000.0;
        if (readyOnly && s.depth() == 0) {
          return new Result(Status.READY_EMPTY, seconds);
        }
        if (s.drained()) {
          return new Result(Status.DRAINED, seconds);
        }
      }
      if (System.nanoTime() - deadline >= 0) {
        return new Result(Status.TIMED_OUT, null);
      }
      sleeper.sleep(POLL);
    }
  }
}
