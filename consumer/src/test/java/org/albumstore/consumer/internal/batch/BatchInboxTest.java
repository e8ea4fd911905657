package org.albumstore.consumer.internal.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Where batches are cut, without a clock: a queue that records every timed poll shows whether the
 * inbox armed a wait for a partial batch; a worker whose "commit" is held on a latch shows what
 * arrives meanwhile becoming the next batch.
 */
class BatchInboxTest {
  private static final long IDLE_MILLIS = 100;

  /** An inbox queue that records the timeout of every timed poll, in nanoseconds. */
  private static final class RecordingQueue extends ArrayBlockingQueue<Integer> {
    final List<Long> timedPolls = new CopyOnWriteArrayList<>();

    RecordingQueue() {
      super(100);
    }

    @Override
    public Integer poll(long timeout, TimeUnit unit) throws InterruptedException {
      timedPolls.add(unit.toNanos(timeout));
      return super.poll(timeout, unit);
    }
  }

  @Test
  void aLoneMessageIsCutIntoABatchWithNoWaitArmed() throws Exception {
    RecordingQueue q = new RecordingQueue();
    BatchInbox<Integer> inbox = new BatchInbox<>(q, 500, BatchWait.fixed(0));
    assertThat(inbox.offer(1, 0)).isTrue();

    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> false)).containsExactly(1);
    // The only timed poll is the one for the first message, which was there already.
    assertThat(q.timedPolls).containsExactly(TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS));
  }

  /** The check above sees a wait when there is one: a configured batch wait is armed. */
  @Test
  void aConfiguredBatchWaitIsArmedForAPartialBatch() throws Exception {
    RecordingQueue q = new RecordingQueue();
    BatchInbox<Integer> inbox = new BatchInbox<>(q, 500, BatchWait.fixed(10));
    assertThat(inbox.offer(1, 0)).isTrue();

    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> false)).containsExactly(1);
    assertThat(q.timedPolls).hasSize(2);
    assertThat(q.timedPolls.get(1)).isPositive().isLessThanOrEqualTo(10_000_000L);
  }

  /** The default: a wait is armed only while the queue holds a backlog. */
  @Test
  void aBacklogWaitIsArmedOnlyWhileThereIsABacklog() throws Exception {
    AtomicBoolean backlog = new AtomicBoolean();
    RecordingQueue q = new RecordingQueue();
    BatchInbox<Integer> inbox = new BatchInbox<>(q, 500, new BatchWait(0, 10, backlog::get));

    assertThat(inbox.offer(1, 0)).isTrue();
    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> false)).containsExactly(1);
    assertThat(q.timedPolls).as("no backlog: no wait").hasSize(1);

    backlog.set(true);
    assertThat(inbox.offer(2, 0)).isTrue();
    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> false)).containsExactly(2);
    assertThat(q.timedPolls).as("a backlog: the wait is armed").hasSize(3);
    assertThat(q.timedPolls.get(2)).isPositive().isLessThanOrEqualTo(10_000_000L);
  }

  /** A configured fixed wait wins over the backlog wait, and a full batch never waits. */
  @Test
  void aFixedWaitWinsAndAFullBatchNeverWaits() throws Exception {
    assertThat(new BatchWait(25, 10, () -> true).getAsLong()).isEqualTo(25);
    assertThat(new BatchWait(0, 0, () -> true).getAsLong()).isZero();
    RecordingQueue q = new RecordingQueue();
    BatchInbox<Integer> inbox = new BatchInbox<>(q, 2, new BatchWait(0, 10, () -> true));
    assertThat(inbox.offer(1, 0)).isTrue();
    assertThat(inbox.offer(2, 0)).isTrue();
    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> false)).containsExactly(1, 2);
    assertThat(q.timedPolls).hasSize(1);
  }

  @Test
  void aBatchTakesWhatHasArrivedUpToTheBatchSize() throws Exception {
    RecordingQueue q = new RecordingQueue();
    BatchInbox<Integer> inbox = new BatchInbox<>(q, 3, BatchWait.fixed(0));
    for (int i = 0; i < 7; i++) {
      assertThat(inbox.offer(i, 0)).isTrue();
    }
    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> false)).containsExactly(0, 1, 2);
    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> false)).containsExactly(3, 4, 5);
    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> false)).containsExactly(6);
    assertThat(q.timedPolls).hasSize(3); // one per batch, for its first item
  }

  @Test
  void anEmptyInboxGivesAnEmptyBatchAfterTheIdlePoll() throws Exception {
    BatchInbox<Integer> inbox = new BatchInbox<>(10, 5, BatchWait.fixed(0));
    assertThat(inbox.nextBatch(1, () -> false)).isEmpty();
  }

  /**
   * Group commit: a worker loop whose first "commit" is held until five more items have arrived
   * takes those five as its next batch, in one piece, in order; nothing is lost or taken twice.
   */
  @Test
  void whatArrivesWhileTheWorkerCommitsIsItsNextBatch() throws Exception {
    BatchInbox<Integer> inbox = new BatchInbox<>(100, 500, BatchWait.fixed(0));
    List<List<Integer>> batches = new CopyOnWriteArrayList<>();
    CountDownLatch firstCommitting = new CountDownLatch(1);
    CountDownLatch releaseCommit = new CountDownLatch(1);
    CountDownLatch twoBatches = new CountDownLatch(2);
    Thread worker =
        new Thread(
            () -> {
              try {
                while (twoBatches.getCount() > 0) {
                  List<Integer> batch = inbox.nextBatch(IDLE_MILLIS, () -> false);
                  if (batch.isEmpty()) {
                    continue;
                  }
                  batches.add(batch);
                  if (batches.size() == 1) {
                    firstCommitting.countDown();
                    releaseCommit.await(30, TimeUnit.SECONDS); // the transaction commits
                  }
                  twoBatches.countDown();
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "batch-inbox-test-worker");
    worker.start();
    try {
      assertThat(inbox.offer(0, 0)).isTrue();
      assertThat(firstCommitting.await(30, TimeUnit.SECONDS)).isTrue();
      List<Integer> duringCommit = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        assertThat(inbox.offer(i, 0)).isTrue();
        duringCommit.add(i);
      }
      releaseCommit.countDown();
      assertThat(twoBatches.await(30, TimeUnit.SECONDS)).isTrue();

      assertThat(batches).containsExactly(List.of(0), duringCommit);
    } finally {
      worker.interrupt();
      worker.join(10_000);
    }
  }

  @Test
  void aStopRequestEndsAConfiguredWaitEarly() throws Exception {
    BlockingQueue<Integer> q = new RecordingQueue();
    BatchInbox<Integer> inbox = new BatchInbox<>(q, 500, BatchWait.fixed(60_000));
    assertThat(inbox.offer(1, 0)).isTrue();
    assertThat(inbox.nextBatch(IDLE_MILLIS, () -> true)).containsExactly(1);
  }
}
