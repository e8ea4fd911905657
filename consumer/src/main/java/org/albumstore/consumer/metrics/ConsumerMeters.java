package org.albumstore.consumer.metrics;

import com.rabbitmq.client.ConnectionFactory;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.albumstore.common.metrics.ServiceMeters;
import org.albumstore.consumer.ConsumerCounters;
import org.albumstore.consumer.stats.ConsumerMetrics;
import org.albumstore.consumer.stats.WriteTimings;

/**
 * The consumer's meters, in one Prometheus registry of its own:
 *
 * <ul>
 *   <li>{@code albumstore_consumer_messages_applied_total}, {@code ..._reviews_applied_total},
 *       {@code ..._albums_inserted_total}, {@code ..._transactions_total}, {@code
 *       ..._redelivered_total}, {@code ..._dead_lettered_total}: read from {@link ConsumerMetrics}
 *       at scrape time, so the hot path keeps its LongAdders and nothing more;
 *   <li>{@code albumstore_consumer_batch_messages} (messages per transaction), {@code
 *       albumstore_consumer_batch_apply_seconds}, {@code albumstore_consumer_batch_commit_seconds}:
 *       one sample per transaction;
 *   <li>{@code albumstore_consumer_write_stage_seconds{stage}} and {@code
 *       albumstore_consumer_visibility_seconds}: one sample per write (album or review) carried by
 *       a committed message, so that they weigh like the HTTP requests they came from. Stages:
 *       {@code queue} (published → delivered here: the broker's queue and the network), {@code
 *       batch_wait} (delivered → its transaction begins: the worker's inbox, the batch filling up,
 *       decoding, retries), {@code apply} (the statements), {@code commit} (an explicit commit; 0
 *       when the batch is one autocommitted statement, whose commit is then in {@code apply}).
 *       Visibility is published → committed: when a GET can first see the write;
 *   <li>{@code albumstore_consumer_ledger_pruned_total}: ledger rows deleted once expired ({@link
 *       org.albumstore.consumer.ledger.LedgerPruner});
 *   <li>{@code rabbitmq_connections}, {@code rabbitmq_channels}, {@code rabbitmq_consumed_total},
 *       {@code rabbitmq_acknowledged_total}, {@code rabbitmq_rejected_total}, {@code
 *       rabbitmq_published_total} (the dead-letter publishes), ...: amqp-client's own collector;
 *   <li>{@code hikaricp_connections_*{pool="albumstore-consumer"|"albumstore-consumer-ledger"}},
 *       {@code jvm_*}, {@code process_*}.
 * </ul>
 *
 * <p>Queue and visibility compare the publisher's wall clock with this one: exact on one machine,
 * off by the clock skew across machines (negative differences are counted as 0). Both are in whole
 * milliseconds, the resolution of the timestamp in the message.
 */
public final class ConsumerMeters implements WriteTimings, AutoCloseable {
  static final String STAGE = "albumstore.consumer.write.stage";
  static final String VISIBILITY = "albumstore.consumer.visibility";
  static final String BATCH_MESSAGES = "albumstore.consumer.batch.messages";
  static final String BATCH_APPLY = "albumstore.consumer.batch.apply";
  static final String BATCH_COMMIT = "albumstore.consumer.batch.commit";

  private final ServiceMeters meters = new ServiceMeters();
  private final MeterRegistry registry = meters.registry();
  private final Timer queue;
  private final Timer batchWait;
  private final Timer apply;
  private final Timer commit;
  private final Timer visibility;
  private final Timer batchApply;
  private final Timer batchCommit;
  private final DistributionSummary batchMessages;

  public ConsumerMeters() {
    queue = stage("queue", "published -> delivered to the consumer");
    batchWait = stage("batch_wait", "delivered -> its transaction begins");
    apply = stage("apply", "the transaction's statements");
    commit = stage("commit", "the transaction's commit");
    visibility =
        ServiceMeters.stageTimer(VISIBILITY)
            .description("Per write: published -> committed, i.e. visible to reads")
            .register(registry);
    batchApply =
        ServiceMeters.stageTimer(BATCH_APPLY)
            .description("Per transaction: borrow a connection and run the statements")
            .register(registry);
    batchCommit =
        ServiceMeters.stageTimer(BATCH_COMMIT)
            .description("Per transaction: the commit")
            .register(registry);
    batchMessages =
        DistributionSummary.builder(BATCH_MESSAGES)
            .description("Messages per transaction")
            .publishPercentileHistogram()
            .minimumExpectedValue(1.0)
            .maximumExpectedValue(65_535.0)
            .register(registry);
  }

  private Timer stage(String stage, String what) {
    return ServiceMeters.stageTimer(STAGE)
        .description("Per write, time in one stage after publishing: " + what)
        .tag("stage", stage)
        .register(registry);
  }

  /** Exposes the running totals as Prometheus counters, read when scraped. */
  public void bindCounters(ConsumerMetrics metrics) {
    counter(metrics, "messages.applied", "Messages committed", ConsumerCounters::messagesApplied);
    counter(
        metrics,
        "reviews.applied",
        "Reviews that moved a counter",
        ConsumerCounters::reviewsApplied);
    counter(metrics, "albums.inserted", "Albums inserted", ConsumerCounters::albumsInserted);
    counter(metrics, "transactions", "Committed transactions", ConsumerCounters::transactions);
    counter(
        metrics, "redelivered", "Deliveries flagged redelivered", ConsumerCounters::redelivered);
    counter(
        metrics,
        "dead.lettered",
        "Messages sent to the dead-letter queue",
        ConsumerCounters::deadLettered);
  }

  private void counter(
      ConsumerMetrics metrics, String name, String what, ToLongFunction<ConsumerCounters> field) {
    FunctionCounter.builder(
            "albumstore.consumer." + name, metrics, m -> field.applyAsLong(m.snapshot()))
        .description(what)
        .register(registry);
  }

  /** Adds HikariCP's pool metrics (connections active, idle, pending, acquire time, ...). */
  public void bindPool(HikariDataSource pool) {
    meters.bindPool(pool);
  }

  /** Adds amqp-client's metrics for every connection {@code factory} opens. */
  public void bindAmqp(ConnectionFactory factory) {
    meters.bindAmqp(factory);
  }

  @Override
  public void batchCommitted(int messages, long applyNanos, long commitNanos) {
    batchMessages.record(messages);
    batchApply.record(applyNanos, TimeUnit.NANOSECONDS);
    batchCommit.record(commitNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void messageCommitted(
      int writes,
      long publishedAtMillis,
      long arrivedAtMillis,
      long waitNanos,
      long applyNanos,
      long commitNanos,
      long committedAtMillis) {
    long queueMillis = Math.max(0, arrivedAtMillis - publishedAtMillis);
    long visibleMillis = Math.max(0, committedAtMillis - publishedAtMillis);
    for (int i = 0; i < writes; i++) {
      queue.record(queueMillis, TimeUnit.MILLISECONDS);
      batchWait.record(waitNanos, TimeUnit.NANOSECONDS);
      apply.record(applyNanos, TimeUnit.NANOSECONDS);
      commit.record(commitNanos, TimeUnit.NANOSECONDS);
      visibility.record(visibleMillis, TimeUnit.MILLISECONDS);
    }
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** The current figures in the Prometheus text format. */
  public String scrape() {
    return meters.scrape();
  }

  @Override
  public void close() {
    meters.close();
  }
}
