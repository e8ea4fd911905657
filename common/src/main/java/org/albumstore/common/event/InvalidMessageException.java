package org.albumstore.common.event;

/**
 * A message that can never be applied: undecodable, of an unknown version, or with impossible
 * values. The consumer dead-letters it with {@link #getMessage()} as the reason instead of
 * redelivering it forever.
 */
public final class InvalidMessageException extends Exception {
  public InvalidMessageException(String reason) {
    super(reason);
  }

  public InvalidMessageException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
