package org.albumstore.server.publish;

/**
 * A write the broker did not confirm: queue full, broker down, nack, unroutable, confirm timeout or
 * shutdown. The message is meant for the client (it carries no internals); the servlet answers 503
 * with {@code Retry-After}, because every one of these is worth retrying with the same
 * Idempotency-Key.
 */
public final class WriteRejectedException extends Exception {
  public WriteRejectedException(String userMessage) {
    // No stack trace: thousands of these are created per second when the server sheds load.
    super(userMessage, null, false, false);
  }
}
