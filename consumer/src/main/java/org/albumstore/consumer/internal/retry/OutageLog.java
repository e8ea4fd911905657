package org.albumstore.consumer.internal.retry;

import org.albumstore.common.log.FailureStreak;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a dependency's outages once per state change, however many workers retry how often: the
 * first failure after a success logs a warning with its cause, the first success after failures
 * logs how long the outage lasted. Shared by all workers; lock-free ({@link FailureStreak} decides
 * which call logs).
 */
public final class OutageLog {
  private static final Logger log = LoggerFactory.getLogger(OutageLog.class);

  private final String dependency;
  private final FailureStreak outage = new FailureStreak();

  /**
   * @param dependency what is failing, e.g. "database writes"; starts the log lines
   */
  public OutageLog(String dependency) {
    this.dependency = dependency;
  }

  public void failed(String description) {
    if (outage.failed()) {
      log.warn(
          "{} failing, retrying with back-off (messages stay unacknowledged): {}",
          dependency,
          description);
    }
  }

  public void succeeded() {
    outage
        .succeeded()
        .ifPresent(
            ended ->
                log.info(
                    "{} recovered after {} ms ({} failed attempts)",
                    dependency,
                    ended.lasted().toMillis(),
                    ended.failures()));
  }

  public boolean failing() {
    return outage.failing();
  }
}
