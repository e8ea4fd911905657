package org.albumstore.consumer.stats;

import java.util.concurrent.atomic.LongAdder;
import org.albumstore.consumer.ConsumerCounters;
import org.albumstore.consumer.sql.WriteResult;

/**
 * The consumer's running totals; updated by every worker, contention-free (LongAdder). Timings go
 * on to a {@link WriteTimings} (the Micrometer meters), which keeps this class free of any metrics
 * library.
 */
public final class ConsumerMetrics {
  private final LongAdder messages = new LongAdder();
  private final LongAdder reviews = new LongAdder();
  private final LongAdder albums = new LongAdder();
  private final LongAdder transactions = new LongAdder();
  private final LongAdder deadLettered = new LongAdder();
  private final LongAdder redelivered = new LongAdder();
  private final WriteTimings timings;

  public ConsumerMetrics() {
    this(WriteTimings.NONE);
  }

  public ConsumerMetrics(WriteTimings timings) {
    this.timings = timings;
  }

  /** Where the workers report the timings of committed messages. */
  public WriteTimings timings() {
    return timings;
  }

  public void committed(WriteResult r) {
    messages.add(r.messages());
    reviews.add(r.reviewsApplied());
    albums.add(r.albumsInserted());
    transactions.increment();
    timings.batchCommitted(r.messages(), r.applyNanos(), r.commitNanos());
  }

  public void deadLettered() {
    deadLettered.increment();
  }

  public void redelivered(int n) {
    redelivered.add(n);
  }

  public ConsumerCounters snapshot() {
    return new ConsumerCounters(
        messages.sum(),
        reviews.sum(),
        albums.sum(),
        transactions.sum(),
        deadLettered.sum(),
        redelivered.sum());
  }
}
