package org.albumstore.server.internal.web;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * Logs a recurring failure (database down, broken responses) at most once per interval, with the
 * number of occurrences since the last line: a failure seen by every request must not turn into a
 * log line per request.
 */
final class ThrottledLog {
  private final Logger log;
  private final long intervalNanos;
  private final AtomicLong nextAllowed = new AtomicLong(System.nanoTime());
  private final AtomicLong suppressed = new AtomicLong();

  public ThrottledLog(Logger log, long intervalMillis) {
    this.log = log;
    this.intervalNanos = intervalMillis * 1_000_000L;
  }

  public void warn(String what, Throwable cause) {
    long now = System.nanoTime();
    long next = nextAllowed.get();
    if (now - next >= 0 && nextAllowed.compareAndSet(next, now + intervalNanos)) {
      long more = suppressed.getAndSet(0);
      if (more > 0) {
        log.warn("{} ({} more since the last report)", what, more, cause);
      } else {
        log.warn(what, cause);
      }
    } else {
      suppressed.incrementAndGet();
    }
  }
}
