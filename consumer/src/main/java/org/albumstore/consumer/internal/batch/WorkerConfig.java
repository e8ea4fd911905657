package org.albumstore.consumer.internal.batch;

import org.albumstore.common.config.AmqpSettings;
import org.albumstore.consumer.internal.amqp.CommitAnnouncer;
import org.albumstore.consumer.internal.metrics.ConsumerMetrics;
import org.albumstore.consumer.internal.retry.OutageLog;
import org.albumstore.consumer.sql.AggregateWriter;

/**
 * What every channel worker of one consumer shares: where it consumes and dead-letters, how it cuts
 * batches, and the writer, meters and outage logs its batches go to. Built once per consumer; each
 * {@link ChannelWorker} adds only its own channel, name and priority.
 *
 * @param amqp the write queue to consume and its dead-letter queue
 * @param prefetch unacknowledged messages per channel; the inbox holds twice as many
 * @param batchSize deliveries per transaction, at most
 * @param batchWait how long a partial batch waits for more, asked at each batch
 * @param deadLetterConfirmMillis how long a dead letter waits for the broker's confirm
 * @param writer applies one batch in one transaction
 * @param announcer announces each commit to the servers
 * @param metrics the running totals and meters the workers report to
 * @param databaseOutages the workers' shared log of failing database writes
 * @param brokerOutages the workers' shared log of failing dead-letter publishing
 */
public record WorkerConfig(
    AmqpSettings amqp,
    int prefetch,
    int batchSize,
    BatchWait batchWait,
    long deadLetterConfirmMillis,
    AggregateWriter writer,
    CommitAnnouncer announcer,
    ConsumerMetrics metrics,
    OutageLog databaseOutages,
    OutageLog brokerOutages) {}
