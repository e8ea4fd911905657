package org.albumstore.common.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FailureStreakTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final FailureStreak streak = new FailureStreak(now::get);

  @Test
  void nothingToLogWhileNothingFails() {
    assertThat(streak.succeeded()).isEmpty();
    assertThat(streak.succeeded()).isEmpty();
    assertThat(streak.failing()).isFalse();
  }

  @Test
  void onlyTheFirstFailureOfAStreakIsToBeLogged() {
    assertThat(streak.failed()).isTrue();
    assertThat(streak.failed()).isFalse();
    assertThat(streak.failed()).isFalse();
    assertThat(streak.failing()).isTrue();
  }

  @Test
  void theFirstSuccessEndsTheStreakWithItsCountAndLength() {
    streak.failed();
    now.addAndGet(2_000_000_000L);
    streak.failed();
    streak.failed();
    now.addAndGet(500_000_000L);

    assertThat(streak.succeeded()).contains(new FailureStreak.Ended(3, Duration.ofMillis(2_500)));
    assertThat(streak.succeeded()).isEmpty();
    assertThat(streak.failing()).isFalse();
  }

  @Test
  void aNewStreakStartsAfreshAfterASuccess() {
    streak.failed();
    streak.failed();
    streak.succeeded();

    assertThat(streak.failed()).isTrue();
    now.addAndGet(1_000);
    assertThat(streak.succeeded()).contains(new FailureStreak.Ended(1, Duration.ofNanos(1_000)));
  }

  @Test
  void ofManyThreadsFailingAtOnceExactlyOneStartsTheStreakAndOneEndsIt() throws Exception {
    FailureStreak shared = new FailureStreak();
    int threads = 8;
    int attempts = 1_000;
    AtomicInteger started = new AtomicInteger();
    AtomicInteger ended = new AtomicInteger();
    AtomicLong endedFailures = new AtomicLong();
    runTogether(
        threads,
        () -> {
          for (int i = 0; i < attempts; i++) {
            if (shared.failed()) {
              started.incrementAndGet();
            }
          }
        });
    runTogether(
        threads,
        () ->
            shared
                .succeeded()
                .ifPresent(
                    e -> {
                      ended.incrementAndGet();
                      endedFailures.addAndGet(e.failures());
                    }));

    assertThat(started).hasValue(1);
    assertThat(ended).hasValue(1);
    assertThat(endedFailures).hasValue((long) threads * attempts);
  }

  private static void runTogether(int threads, Runnable task) throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> running = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                task.run();
              });
      thread.start();
      running.add(thread);
    }
    go.countDown();
    for (Thread t : running) {
      t.join(10_000);
    }
  }
}
