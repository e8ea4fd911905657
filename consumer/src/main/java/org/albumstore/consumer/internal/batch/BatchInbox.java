package org.albumstore.consumer.internal.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A worker's inbox, and where its batches are cut: smart batching (group commit).
 *
 * <p>A worker that is free takes what has arrived, up to the batch size, and starts its transaction
 * with it at once; what arrives while that transaction commits waits here and is the next batch. So
 * at a low rate a lone message is committed without waiting for companions that do not come, and
 * under load the batches grow by themselves to what arrived during one commit, up to the batch size
 * (a backlog cuts full batches). The only blocking wait is for the first message of a batch, while
 * the inbox is empty.
 *
 * <p>A wait for a partial batch to fill ({@link BatchWait}, asked at each batch) is armed only
 * while the queue holds a backlog, by default: then the broker's deliveries set the pace, and
 * fuller batches leave it more of the machine. A configured fixed wait delays every write at a low
 * rate by up to that much, for fewer transactions at a moderate one; fault tests set one to hold
 * unacknowledged deliveries at the moment of a kill.
 *
 * @param <T> what the inbox holds (deliveries; anything in the tests)
 */
final class BatchInbox<T> {
  private final BlockingQueue<T> queue;
  private final int batchSize;
  private final LongSupplier partialWaitMillis;

  /**
   * @param capacity beyond it {@link #offer} blocks
   * @param batchSize most items in one batch
   * @param partialWaitMillis asked at each batch: 0, none; else how long a partial batch waits
   */
  BatchInbox(int capacity, int batchSize, LongSupplier partialWaitMillis) {
    this(new ArrayBlockingQueue<>(capacity), batchSize, partialWaitMillis);
  }

  /** With the queue given, for the tests to watch how it is polled. */
  BatchInbox(BlockingQueue<T> queue, int batchSize, LongSupplier partialWaitMillis) {
    this.queue = queue;
    this.batchSize = batchSize;
    this.partialWaitMillis = partialWaitMillis;
  }

  /** Adds one item, waiting up to {@code timeoutMillis} for room; false if there was none. */
  boolean offer(T item, long timeoutMillis) throws InterruptedException {
    return queue.offer(item, timeoutMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * The next batch: empty if nothing arrived within {@code idleMillis}; else the first item and
   * everything that arrived with it, up to the batch size, without waiting for more (unless a wait
   * is armed for this batch: then up to that long, while {@code stopping} is false).
   */
  List<T> nextBatch(long idleMillis, BooleanSupplier stopping) throws InterruptedException {
    T first = queue.poll(idleMillis, TimeUnit.MILLISECONDS);
    if (first == null) {
      return List.of();
    }
    List<T> batch = new ArrayList<>(Math.min(batchSize, queue.size() + 1));
    batch.add(first);
    queue.drainTo(batch, batchSize - 1);
    long waitMillis = batch.size() < batchSize ? partialWaitMillis.getAsLong() : 0;
    if (waitMillis > 0) {
      fillFor(batch, TimeUnit.MILLISECONDS.toNanos(waitMillis), stopping);
    }
    return batch;
  }

  /** The partial-batch wait, only when armed. */
  private void fillFor(List<T> batch, long waitNanos, BooleanSupplier stopping)
      throws InterruptedException {
    long deadline = System.nanoTime() + waitNanos;
    while (batch.size() < batchSize && !stopping.getAsBoolean()) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        return;
      }
      T next = queue.poll(remaining, TimeUnit.NANOSECONDS);
      if (next == null) {
        return;
      }
      batch.add(next);
      queue.drainTo(batch, batchSize - batch.size());
    }
  }
}
