package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.albumstore.consumer.Fixture.review;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** close() (what SIGTERM runs) loses nothing and leaves no thread behind. */
class ConsumerShutdownIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int PUBLISHED = 5_000;

  @AutoClose private Fixture f;
  private AlbumStoreConsumer consumer;

  @Test
  void afterCloseEveryMessageIsEitherAppliedAndAcknowledgedOrBackInTheQueue(TestInfo info)
      throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    List<WriteBundle> messages = new ArrayList<>();
    for (int n = 0; n < PUBLISHED; n++) {
      messages.add(Bundles.reviews(List.of(review(f.album(n % 10), Vote.LIKE))));
    }
    f.publishAll(messages);

    Set<Thread> baseline = liveThreads();
    AlbumStoreConsumer first = f.start(Fixture.settings(2, 2, 200, 50));
    await("some progress", WAIT, () -> first.counters().messagesApplied() >= 300);
    first.close(); // mid-stream: batches in hand, deliveries in the inboxes and in flight

    long applied = f.totalReviews();
    assertThat(applied).isEqualTo(first.counters().reviewsApplied()).isLessThan(PUBLISHED);
    // Nothing delivered is left in limbo: what was not applied is ready in the queue again.
    await("queue + applied = published", WAIT, () -> f.ready() + applied == PUBLISHED);
    assertNoThreadOutlives(baseline);

    // A second consumer finishes the job: each message counted exactly once overall.
    consumer = f.start(Fixture.settings(1, 2, 200, 50));
    await("all applied", WAIT, () -> f.totalReviews() == PUBLISHED);
    await("queue drained", WAIT, () -> f.ready() == 0);
    for (int album = 0; album < 10; album++) {
      assertThat(f.counts(f.album(album))).containsExactly(PUBLISHED / 10, 0);
    }
  }

  @Test
  void closeIsIdempotentAndCountersStayReadable(TestInfo info) throws Exception {
    f = Fixture.create(info.getTestMethod().orElseThrow().getName());
    Set<Thread> baseline = liveThreads();
    AlbumStoreConsumer c = f.start(Fixture.settings(1, 1, 10, 10));
    c.close();
    c.close();
    assertThat(c.counters().messagesApplied()).isZero();
    assertNoThreadOutlives(baseline);
  }

  /** Waits up to 5 s for threads that are still winding down, then names any left. */
  private static void assertNoThreadOutlives(Set<Thread> baseline) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    List<String> left = newThreads(baseline);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      left = newThreads(baseline);
    }
    assertThat(left).as("threads that outlived close()").isEmpty();
  }

  private static Set<Thread> liveThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .collect(Collectors.toSet());
  }

  /**
   * Threads alive now that were not before the consumer started: its workers, stats timer, pool
   * housekeeping, broker connection and dispatch threads. Excepted: the test's own threads ("it-*":
   * the fixture's read pool), and two JVM-wide threads the consumer does not own, the common
   * ForkJoinPool and PgJDBC's "PostgreSQL-JDBC-Cleaner", which the driver starts on demand and ends
   * itself after an idle TTL (pgjdbc.config.cleanup.thread.ttl).
   */
  private static List<String> newThreads(Set<Thread> baseline) {
    return liveThreads().stream()
        .filter(t -> !baseline.contains(t))
        .map(Thread::getName)
        .filter(n -> !n.startsWith("it-"))
        .filter(n -> !n.startsWith("ForkJoinPool.commonPool"))
        .filter(n -> !n.equals("PostgreSQL-JDBC-Cleaner"))
        .toList();
  }
}
