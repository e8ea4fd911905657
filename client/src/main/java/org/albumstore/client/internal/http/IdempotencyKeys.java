package org.albumstore.client.internal.http;

import org.albumstore.common.event.Identifiers;

/**
 * Makes the {@code Idempotency-Key} of every write: unique to the run, the thread, the iteration
 * and the step, so two different writes never share a key (the server would apply only one) while
 * the retries of one write always do. The run ID keeps keys of different runs apart when they write
 * into the same database.
 *
 * <p>Example: {@code 20251122083201-1a2b3c4d-t17-42-l2} (run, thread 17, iteration 42, second
 * like).
 */
public final class IdempotencyKeys {
  private final String runId;

  public IdempotencyKeys(String runId) {
    if (!Identifiers.isValidToken(runId) || runId.length() > 32) {
      throw new IllegalArgumentException("run ID must be 1-32 of [A-Za-z0-9_-], was " + runId);
    }
    this.runId = runId;
  }

  /**
   * @param thread a thread label unique within the run, e.g. {@code t17} or {@code w3} (warm-up)
   * @param iteration the iteration of that thread
   * @param step {@code a} (album), {@code l1}, {@code l2} (likes), {@code d} (dislike)
   */
  public String key(String thread, int iteration, String step) {
    String key = runId + "-" + thread + "-" + iteration + "-" + step;
    if (!Identifiers.isValidToken(key)) {
      throw new IllegalArgumentException("not a valid idempotency key: " + key);
    }
    return key;
  }
}
