package org.albumstore.client.history;

/**
 * A property's judgement, as Jepsen's checkers give it: the history keeps it, breaks it, or cannot
 * tell (nothing it could judge, or the database was not read).
 */
public enum Validity {
  VALID,
  INVALID,
  UNKNOWN
}
