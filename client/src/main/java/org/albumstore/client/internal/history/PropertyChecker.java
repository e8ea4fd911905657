package org.albumstore.client.internal.history;

import org.albumstore.client.history.Property;
import org.albumstore.client.history.PropertyResult;
import org.albumstore.client.history.Verdict;

/**
 * Judges one {@link Property} of a history. Small and independent, in the manner of Jepsen's
 * checkers: {@link HistoryChecker} runs them all over the same {@link HistoryModel} and composes
 * their results into one {@link Verdict}.
 */
interface PropertyChecker {
  Property property();

  /**
   * @param db the database's rows for the history, or null when it was not read (a write property
   *     is then unknown)
   */
  PropertyResult check(HistoryModel model, DatabaseState db);
}
