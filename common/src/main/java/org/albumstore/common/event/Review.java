package org.albumstore.common.event;

import java.util.UUID;

/**
 * One like or dislike. {@code eventId} is what makes applying it idempotent: the consumer records
 * it in the same transaction that moves the counter, so a redelivered review changes nothing.
 */
public record Review(UUID eventId, String albumId, Vote vote) {}
