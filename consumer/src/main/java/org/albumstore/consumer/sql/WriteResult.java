package org.albumstore.consumer.sql;

import org.albumstore.common.event.CommittedWrites;

/**
 * What one committed transaction changed, and how long it took.
 *
 * @param messages messages the transaction applied (each fully, whether or not it was new)
 * @param reviewsApplied reviews whose event ID was new, i.e. that moved a counter
 * @param committed the albums it inserted (not those that existed before) and the counters it
 *     moved, as committed: what the consumer announces
 * @param applyNanos from asking the pool for a connection to the last statement's end
 * @param commitNanos the transaction's {@code COMMIT}, from the call to its return
 */
public record WriteResult(
    int messages,
    int reviewsApplied,
    CommittedWrites committed,
    long applyNanos,
    long commitNanos) {

  /** Album rows that did not exist before. */
  public int albumsInserted() {
    return committed.albums().size();
  }
}
