package org.albumstore.server.internal.read;

/**
 * Too many reads already wait for the database: this one is refused at once, before it is queued.
 * The servlet answers 503 with {@code Retry-After}; unlike {@link ReadFailedException}, nothing
 * failed, and nothing is logged.
 */
public final class ReadRefusedException extends Exception {
  public ReadRefusedException(int queued) {
    super(queued + " reads already wait for the database", null, false, false);
  }
}
