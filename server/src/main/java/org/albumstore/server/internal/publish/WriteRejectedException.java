package org.albumstore.server.internal.publish;

/**
 * A write the broker did not confirm: queue full, broker down, nack, unroutable, confirm timeout or
 * shutdown. The message is meant for the client (it carries no internals); the servlet answers 503
 * with {@code Retry-After}, because every one of these is worth retrying with the same
 * Idempotency-Key.
 */
public final class WriteRejectedException extends Exception {
  private final String reason;

  /**
   * @param reason a short tag for the metrics ({@code albumstore_write_rejected_total{reason}}),
   *     e.g. {@code overloaded}
   * @param userMessage what the client is told
   */
  public WriteRejectedException(String reason, String userMessage) {
    // No stack trace: thousands of these are created per second when the server sheds load.
    super(userMessage, null, false, false);
    this.reason = reason;
  }

  /** The short tag of why: the {@code reason} tag of the rejection counter. */
  public String reason() {
    return reason;
  }
}
