package org.albumstore.common.log;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Says when a failure that repeats until it stops is worth a log line: the first failure of a
 * streak, and the first success after it, with how many failed and for how long. Every attempt in
 * between is counted, not logged, so an outage retried many times a second is two lines, not one
 * per attempt. The caller writes the lines, in its own words: this class decides only when.
 *
 * <p>Here, in {@code common}, because both sides of the queue log this way: the server's publisher
 * workers, the consumer's workers, its announcer, its backlog watch and its outage log.
 *
 * <p>Thread-safe and lock-free, for a streak shared by many threads: of concurrent callers, exactly
 * one sees {@link #failed} start a streak and exactly one sees {@link #succeeded} end it (a
 * compare-and-set on the streak's start decides). On the success path, while nothing fails, a call
 * is one volatile read.
 */
public final class FailureStreak {
  /** How a streak ended: the failures it counted, and how long it lasted. */
  public record Ended(long failures, Duration lasted) {}

  private final LongSupplier nanoTime;

  /** When the current streak began ({@code nanoTime}), or null while nothing fails. */
  private final AtomicReference<Long> since = new AtomicReference<>();

  private final AtomicLong failures = new AtomicLong();

  public FailureStreak() {
    this(System::nanoTime);
  }

  /** With a clock of the test's (nanoseconds, as {@link System#nanoTime}). */
  FailureStreak(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** Counts one failure; true when it starts a streak: the one failure to log. */
  public boolean failed() {
    failures.incrementAndGet();
    return since.get() == null && since.compareAndSet(null, nanoTime.getAsLong());
  }

  /** Ends the streak, if one is on: how it went (to log); empty while nothing was failing. */
  public Optional<Ended> succeeded() {
    Long start = since.get();
    if (start == null || !since.compareAndSet(start, null)) {
      return Optional.empty();
    }
    return Optional.of(
        new Ended(failures.getAndSet(0), Duration.ofNanos(nanoTime.getAsLong() - start)));
  }

  /** Whether a streak is on: the last attempt failed. */
  public boolean failing() {
    return since.get() != null;
  }
}
