package org.albumstore.consumer.internal.retry;

/**
 * Exponential back-off between retries of the same work: {@value #INITIAL_MILLIS} ms, doubling up
 * to {@value #MAX_MILLIS} ms, back to the start after a success. Not thread-safe: one per worker.
 *
 * <p>Why capped at a few seconds: a consumer that waits long after the database comes back leaves
 * the queue growing for nothing; one attempt every few seconds per worker costs the database
 * nothing.
 */
public final class Backoff {
  public static final long INITIAL_MILLIS = 100;
  public static final long MAX_MILLIS = 5_000;

  private final long initial;
  private final long max;
  private long next;

  public Backoff() {
    this(INITIAL_MILLIS, MAX_MILLIS);
  }

  public Backoff(long initialMillis, long maxMillis) {
    if (initialMillis < 1 || maxMillis < initialMillis) {
      throw new IllegalArgumentException("need 1 <= initial <= max");
    }
    this.initial = initialMillis;
    this.max = maxMillis;
    this.next = initialMillis;
  }

  /** The delay before the next retry; each call doubles the one after, up to the cap. */
  public long nextDelayMillis() {
    long d = next;
    next = Math.min(max, next * 2);
    return d;
  }

  public void reset() {
    next = initial;
  }
}
