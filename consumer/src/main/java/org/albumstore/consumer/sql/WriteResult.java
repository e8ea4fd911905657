package org.albumstore.consumer.sql;

/**
 * What one committed transaction changed.
 *
 * @param messages messages the transaction applied (each fully, whether or not it was new)
 * @param albumsInserted album rows that did not exist before
 * @param reviewsApplied reviews whose event ID was new, i.e. that moved a counter
 */
public record WriteResult(int messages, int albumsInserted, int reviewsApplied) {}
