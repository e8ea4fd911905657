package org.albumstore.consumer.internal.metrics;

import com.rabbitmq.client.ConnectionFactory;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;
import org.albumstore.common.metrics.ConsumerStage;
import org.albumstore.common.metrics.MetricNames;
import org.albumstore.common.metrics.ServiceMeters;
import org.albumstore.consumer.ConsumerCounters;
import org.albumstore.consumer.sql.WriteResult;

/**
 * The consumer's metrics: what its workers report, kept as running totals ({@link #snapshot()}, for
 * the rate log line and the callers of {@code AlbumStoreConsumer.counters()}) and as meters in one
 * Prometheus registry of its own. Called by the worker threads after each commit: cheap, never
 * blocking, never throwing.
 *
 * <ul>
 *   <li>{@code albumstore_consumer_messages_applied_total}, {@code ..._reviews_applied_total},
 *       {@code ..._albums_inserted_total}, {@code ..._transactions_total}, {@code
 *       ..._redelivered_total}, {@code ..._dead_lettered_total}: the totals, read at scrape time,
 *       so the hot path adds to LongAdders and nothing more;
 *   <li>{@code albumstore_consumer_batch_messages} (messages per transaction), {@code
 *       albumstore_consumer_batch_apply_seconds}, {@code albumstore_consumer_batch_commit_seconds}:
 *       one sample per transaction;
 *   <li>{@code albumstore_consumer_write_stage_seconds{stage}} and {@code
 *       albumstore_consumer_visibility_seconds}: one sample per write (album or review) carried by
 *       a committed message, so that they weigh like the HTTP requests they came from. Stages:
 *       {@code queue} (published → delivered here: the broker's queue and the network), {@code
 *       batch_wait} (delivered → its transaction begins: the worker's inbox, the batch filling up,
 *       decoding, retries), {@code apply} (borrow a connection, the statements), {@code commit}
 *       (the transaction's commit; every batch is one explicit transaction). Visibility is
 *       published → committed: when a GET can first see the write;
 *   <li>{@code albumstore_consumer_ledger_pruned_total}: ledger rows deleted once expired, {@code
 *       albumstore_consumer_ledger_pruned_timestamp_seconds} and {@code
 *       albumstore_consumer_ledger_retention_seconds} ({@link
 *       org.albumstore.consumer.internal.ledger.LedgerPruner});
 *   <li>{@code albumstore_consumer_announcements_total{outcome}}: commits announced to the servers
 *       or dropped (registered by {@code amqp.CommitAnnouncer} in this registry);
 *   <li>{@code albumstore_consumer_ready}: 1 while {@code GET /health} answers 200, else 0 ({@link
 *       #bindHealth});
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
public final class ConsumerMetrics implements AutoCloseable {
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
  private final LongAdder messages = new LongAdder();
  private final LongAdder reviews = new LongAdder();
  private final LongAdder albums = new LongAdder();
  private final LongAdder transactions = new LongAdder();
  private final LongAdder deadLettered = new LongAdder();
  private final LongAdder redelivered = new LongAdder();

  public ConsumerMetrics() {
    queue = stage(ConsumerStage.QUEUE, "published -> delivered to the consumer");
    batchWait = stage(ConsumerStage.BATCH_WAIT, "delivered -> its transaction begins");
    apply = stage(ConsumerStage.APPLY, "the transaction's statements");
    commit = stage(ConsumerStage.COMMIT, "the transaction's commit");
    visibility =
        ServiceMeters.stageTimer(MetricNames.VISIBILITY)
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
    counter("messages.applied", "Messages committed", ConsumerCounters::messagesApplied);
    counter("reviews.applied", "Reviews that moved a counter", ConsumerCounters::reviewsApplied);
    counter("albums.inserted", "Albums inserted", ConsumerCounters::albumsInserted);
    counter("transactions", "Committed transactions", ConsumerCounters::transactions);
    counter("redelivered", "Deliveries flagged redelivered", ConsumerCounters::redelivered);
    counter(
        "dead.lettered", "Messages sent to the dead-letter queue", ConsumerCounters::deadLettered);
  }

  private Timer stage(ConsumerStage stage, String what) {
    return ServiceMeters.stageTimer(MetricNames.CONSUMER_STAGE)
        .description("Per write, time in one stage after publishing: " + what)
        .tag(MetricNames.STAGE_TAG, stage.tag())
        .register(registry);
  }

  /** A running total as a Prometheus counter, read when scraped. */
  private void counter(String name, String what, ToLongFunction<ConsumerCounters> field) {
    FunctionCounter.builder(
            "albumstore.consumer." + name, this, m -> field.applyAsLong(m.snapshot()))
        .description(what)
        .register(registry);
  }

  /**
   * Adds {@code albumstore_consumer_ready}: 1 while {@code health} is ready (what {@code GET
   * /health} answers 200 for), else 0, so that an alert needs no probe of its own.
   */
  public void bindHealth(ConsumerHealth health) {
    Gauge.builder("albumstore.consumer.ready", health, h -> h.ready().status() == 200 ? 1 : 0)
        .description("1 while GET /health answers 200 (broker, database, consuming), else 0")
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

  /** One transaction committed: its totals and its timings. */
  public void committed(WriteResult r) {
    batchMessages.record(r.messages());
    batchApply.record(r.applyNanos(), TimeUnit.NANOSECONDS);
    batchCommit.record(r.commitNanos(), TimeUnit.NANOSECONDS);
    messages.add(r.messages());
    reviews.add(r.reviewsApplied());
    albums.add(r.albumsInserted());
    transactions.increment();
  }

  /**
   * One message of a committed transaction, recorded once per write it carried.
   *
   * @param writes the albums and reviews it carried (each is one HTTP request's write)
   * @param publishedAtMillis when the server published it (wall clock, from the message)
   * @param arrivedAtMillis when the broker delivered it here (wall clock)
   * @param waitNanos delivery → its transaction began (inbox, batch fill, decode, retries)
   * @param applyNanos the transaction's statements, connection borrow included
   * @param commitNanos the transaction's commit
   * @param committedAtMillis when the commit returned (wall clock): the writes are visible
   */
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

  public void deadLettered() {
    deadLettered.increment();
  }

  public void redelivered(int n) {
    redelivered.add(n);
  }

  /** The totals since start. */
  public ConsumerCounters snapshot() {
    return new ConsumerCounters(
        messages.sum(),
        reviews.sum(),
        albums.sum(),
        transactions.sum(),
        deadLettered.sum(),
        redelivered.sum());
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
