package org.albumstore.server.internal.read;

/** The body of {@code GET /review/{albumID}}. */
public record ReviewCounts(long likes, long dislikes) {}
