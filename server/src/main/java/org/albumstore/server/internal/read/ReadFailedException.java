package org.albumstore.server.internal.read;

/**
 * The database could not answer (down, pool exhausted, query failed). The servlet answers 503 and
 * logs the cause; the client sees no SQL.
 */
public final class ReadFailedException extends Exception {
  public ReadFailedException(String what, Throwable cause) {
    super(what, cause);
  }
}
