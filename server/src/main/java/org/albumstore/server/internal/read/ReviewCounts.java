package org.albumstore.server.read;

/** The body of {@code GET /review/{albumID}}. */
public record ReviewCounts(long likes, long dislikes) {}
