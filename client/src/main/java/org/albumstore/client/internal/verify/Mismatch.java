package org.albumstore.client.internal.verify;

/** An album whose counters do not agree with what was acknowledged. */
public record Mismatch(String albumId, String problem) {}
