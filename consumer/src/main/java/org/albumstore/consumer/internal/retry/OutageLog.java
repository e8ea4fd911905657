package org.albumstore.consumer.internal.retry;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a dependency's outages once per state change, however many workers retry how often: the
 * first failure after a success logs a warning with its cause, the first success after failures
 * logs how long the outage lasted. Shared by all workers; lock-free on the success path.
 */
public final class OutageLog {
  private static final Logger log = LoggerFactory.getLogger(OutageLog.class);

  private final String dependency;

  /** Start of the current outage in nanoTime, or null while healthy. */
  private final AtomicReference<Long> outageStart = new AtomicReference<>();

  private final AtomicLong failedAttempts = new AtomicLong();

  /**
   * @param dependency what is failing, e.g. "database writes"; starts the log lines
   */
  public OutageLog(String dependency) {
    this.dependency = dependency;
  }

  public void failed(String description) {
    failedAttempts.incrementAndGet();
    if (outageStart.get() == null && outageStart.compareAndSet(null, System.nanoTime())) {
      log.warn(
          "{} failing, retrying with back-off (messages stay unacknowledged): {}",
          dependency,
          description);
    }
  }

  public void succeeded() {
    Long start = outageStart.get();
    if (start != null && outageStart.compareAndSet(start, null)) {
      log.info(
          "{} recovered after {} ms ({} failed attempts)",
          dependency,
          (System.nanoTime() - start) / 1_000_000,
          failedAttempts.getAndSet(0));
    }
  }

  public boolean failing() {
    return outageStart.get() != null;
  }
}
