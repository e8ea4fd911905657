package org.albumstore.consumer.sql;

/**
 * How much one batch moves one album's counters; both deltas are at least zero. {@code
 * lastReviewAtMillis}: the latest time a server accepted one of these reviews (version 3 messages),
 * or null when none of them carried one.
 */
record AlbumDelta(String albumId, long likes, long dislikes, Long lastReviewAtMillis) {}
