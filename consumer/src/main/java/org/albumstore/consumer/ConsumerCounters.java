package org.albumstore.consumer;

import org.albumstore.consumer.internal.metrics.ConsumerMetrics;

/**
 * The totals of {@link ConsumerMetrics} since the consumer started, at one moment.
 *
 * @param messagesApplied messages whose transaction committed (new or already applied before)
 * @param reviewsApplied reviews that moved a counter (their event ID was new)
 * @param albumsInserted album rows that did not exist before
 * @param transactions committed transactions (batches, or single messages after a split)
 * @param deadLettered messages sent to the dead-letter queue
 * @param redelivered deliveries the broker flagged as redelivered
 */
public record ConsumerCounters(
    long messagesApplied,
    long reviewsApplied,
    long albumsInserted,
    long transactions,
    long deadLettered,
    long redelivered) {}
