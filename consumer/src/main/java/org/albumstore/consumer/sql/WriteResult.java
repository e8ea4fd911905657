package org.albumstore.consumer.sql;

/**
 * What one committed transaction changed, and how long it took.
 *
 * @param messages messages the transaction applied (each fully, whether or not it was new)
 * @param albumsInserted album rows that did not exist before
 * @param reviewsApplied reviews whose event ID was new, i.e. that moved a counter
 * @param applyNanos from asking the pool for a connection to the last statement's end
 * @param commitNanos an explicit commit alone (0 when the commit is part of the statement)
 */
public record WriteResult(
    int messages, int albumsInserted, int reviewsApplied, long applyNanos, long commitNanos) {}
