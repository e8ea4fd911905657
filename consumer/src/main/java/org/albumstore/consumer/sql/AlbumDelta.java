package org.albumstore.consumer.sql;

/** How much one batch moves one album's counters; both deltas are at least zero. */
record AlbumDelta(String albumId, long likes, long dislikes) {}
