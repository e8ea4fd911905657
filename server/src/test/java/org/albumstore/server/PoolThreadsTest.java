package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class PoolThreadsTest {

  @Test
  void threadsAreNamedAfterThePoolAndDaemons() {
    PoolThreads threads = new PoolThreads("reads");
    Thread first = threads.newThread(() -> {});
    Thread second = threads.newThread(() -> {});
    assertThat(first.getName()).isEqualTo("reads:1");
    assertThat(second.getName()).isEqualTo("reads:2");
    assertThat(first.isDaemon()).isTrue();
  }

  @Test
  void awaitExitReturnsOnceEveryThreadHasEnded() throws Exception {
    PoolThreads threads = new PoolThreads("reads");
    CountDownLatch release = new CountDownLatch(1);
    Thread t = threads.newThread(() -> awaitQuietly(release));
    t.start();
    release.countDown();
    assertThat(threads.awaitExit(Duration.ofSeconds(30))).isEmpty();
    assertThat(t.isAlive()).isFalse();
  }

  @Test
  void aThreadThatDoesNotEndInTimeIsNamed() throws Exception {
    PoolThreads threads = new PoolThreads("reads");
    CountDownLatch release = new CountDownLatch(1);
    Thread t = threads.newThread(() -> awaitQuietly(release));
    t.start();
    try {
      assertThat(threads.awaitExit(Duration.ofMillis(10))).containsExactly("reads:1");
    } finally {
      release.countDown();
      t.join();
    }
  }

  @Test
  void endedThreadsAreForgottenButNotOnesYetToStart() throws Exception {
    PoolThreads threads = new PoolThreads("reads");
    Thread ended = threads.newThread(() -> {});
    ended.start();
    ended.join();
    threads.newThread(
        () -> {}); // handed out, not started yet: an executor starts it a moment later
    threads.newThread(() -> {});
    assertThat(threads.tracked()).isEqualTo(2);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
