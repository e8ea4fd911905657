package org.albumstore.server.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReadThreadsTest {
  private final List<Thread> created = new CopyOnWriteArrayList<>();
  private final ThreadFactory threads =
      r -> {
        Thread t = new Thread(r, "read-threads-test-" + created.size());
        t.setDaemon(true);
        created.add(t);
        return t;
      };
  private final List<String> events = new CopyOnWriteArrayList<>();
  private ReadThreads readThreads;

  @AfterEach
  void close() {
    if (readThreads != null) {
      readThreads.close();
    }
  }

  @Test
  void aQueryRunsOnItsOwnThreadOnlyWhileOneOfThePermitsIsFree() {
    readThreads = new ReadThreads(2, 2, 10, threads);
    assertThat(readThreads.tryAcquire()).isTrue();
    assertThat(readThreads.tryAcquire()).isTrue();
    assertThat(readThreads.tryAcquire()).isFalse();
    readThreads.release();
    assertThat(readThreads.tryAcquire()).isTrue();
  }

  @Test
  void queuedQueriesRunOnReadThreadsInTurnOnceAPermitIsFree() throws Exception {
    readThreads = new ReadThreads(1, 1, 10, threads);
    assertThat(readThreads.tryAcquire()).isTrue(); // a query on a request thread holds the permit
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch ran = new CountDownLatch(2);
    assertThat(readThreads.queue(blocking("a", go, ran))).isTrue();
    assertThat(readThreads.queue(query("b", ran))).isTrue();
    awaitWaiting(created.get(0)); // the read thread waits for the permit
    assertThat(events).isEmpty();
    assertThat(readThreads.queued()).isEqualTo(1);

    readThreads.release();
    // The queued query that waited for the permit has it (until "go"): a read arriving now does
    // not wait for it.
    assertThat(readThreads.tryAcquire()).isFalse();
    go.countDown();
    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(events).containsExactly("ran a", "ran b");
    assertThat(readThreads.queued()).isZero();
    assertThat(created).hasSize(1);
  }

  @Test
  void beyondTheQueuesBoundAQueryIsRefusedAtOnce() throws Exception {
    readThreads = new ReadThreads(1, 1, 2, threads);
    assertThat(readThreads.tryAcquire()).isTrue();
    CountDownLatch ran = new CountDownLatch(3);
    // The first goes straight to the (new) read thread, the next two wait in the queue.
    assertThat(readThreads.queue(query("a", ran))).isTrue();
    assertThat(readThreads.queue(query("b", ran))).isTrue();
    assertThat(readThreads.queue(query("c", ran))).isTrue();
    assertThat(readThreads.queue(query("d", ran))).isFalse();
    assertThat(readThreads.queued()).isEqualTo(2);

    readThreads.release();
    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(events).containsExactly("ran a", "ran b", "ran c");
  }

  @Test
  void closingAnswersEveryQueryThatHasNotRunWithoutRunningIt() throws Exception {
    readThreads = new ReadThreads(1, 1, 10, threads);
    assertThat(readThreads.tryAcquire()).isTrue(); // never released: the queries cannot run
    CountDownLatch ran = new CountDownLatch(1);
    for (String name : List.of("a", "b", "c")) {
      assertThat(readThreads.queue(query(name, ran))).isTrue();
    }
    awaitWaiting(created.get(0));

    readThreads.close();
    assertThat(events).containsExactlyInAnyOrder("abandoned a", "abandoned b", "abandoned c");
    // awaitTermination returns a moment before the last worker thread has exited (which is why
    // ServerComponents joins them through PoolThreads): the thread ends, if not at once.
    created.get(0).join(10_000);
    assertThat(created.get(0).isAlive()).isFalse();
    assertThat(readThreads.queue(query("late", ran))).isFalse();
    readThreads = null;
  }

  private ReadThreads.Queued query(String name, CountDownLatch ran) {
    return new ReadThreads.Queued() {
      @Override
      public void run() {
        events.add("ran " + name);
        ran.countDown();
      }

      @Override
      public void abandon() {
        events.add("abandoned " + name);
      }
    };
  }

  private ReadThreads.Queued blocking(String name, CountDownLatch go, CountDownLatch ran) {
    ReadThreads.Queued q = query(name, ran);
    return new ReadThreads.Queued() {
      @Override
      public void run() {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        q.run();
      }

      @Override
      public void abandon() {
        q.abandon();
      }
    };
  }

  private static void awaitWaiting(Thread t) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (t.getState() != Thread.State.WAITING) {
      assertThat(System.nanoTime()).as("%s waits", t.getName()).isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
