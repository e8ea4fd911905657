package org.albumstore.server.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the next bundle may go in flight: at once with none in flight or a full bundle waiting,
 * otherwise only once the bundle in flight landed, then with everything that arrived meanwhile.
 */
class BundlerTest {
  private final BlockingQueue<PendingWrite> queue = new LinkedBlockingQueue<>();
  private final ExecutorService other = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopOtherThread() {
    other.shutdownNow();
  }

  @Test
  void withNothingInFlightTheOldestWriteGoesAtOnceWithEverythingWaiting() throws Exception {
    Bundler b = new Bundler(queue, 256, 1 << 20);
    List<PendingWrite> writes = enqueue(3);

    assertThat(b.next(0, false)).containsExactlyElementsOf(writes);
    assertThat(b.inFlight()).isEqualTo(1);
    b.landed();
    assertThat(b.inFlight()).isZero();
  }

  @Test
  void whileOneIsInFlightTheNextWaitsForItToLandAndTakesWhatArrivedMeanwhile() throws Exception {
    Bundler b = withOneInFlight(256);

    List<PendingWrite> meanwhile = enqueue(1);
    Future<List<PendingWrite>> next = waitingInOtherThread(b, 0);
    meanwhile.addAll(enqueue(5)); // arrive while the first bundle is in flight

    b.landed();
    assertThat(next.get(5, TimeUnit.SECONDS)).containsExactlyElementsOf(meanwhile);
    assertThat(b.inFlight()).isEqualTo(1);
  }

  @Test
  void aFullBundleWaitingGoesInFlightBesideTheOneInFlight() throws Exception {
    Bundler b = withOneInFlight(4);

    List<PendingWrite> full = enqueue(4);
    assertThat(b.next(0, false)).containsExactlyElementsOf(full);
    assertThat(b.inFlight()).isEqualTo(2);
  }

  @Test
  void aBundleThatFillsUpWhileOneIsInFlightGoesWithoutWaitingForTheLanding() throws Exception {
    Bundler b = withOneInFlight(4);

    List<PendingWrite> filling = enqueue(2);
    Future<List<PendingWrite>> next = waitingInOtherThread(b, 1);
    filling.addAll(enqueue(2)); // now a full bundle waits; the first one never lands here

    assertThat(next.get(5, TimeUnit.SECONDS)).containsExactlyElementsOf(filling);
    assertThat(b.inFlight()).isEqualTo(2);
  }

  @Test
  void theWriteCarriedOverFromABundleCutByItsByteLimitGoesWithoutWaiting() throws Exception {
    long threeReviews = 3L * BundleGrouperTest.review().estimatedBytes();
    Bundler b = new Bundler(queue, 256, threeReviews);
    List<PendingWrite> writes = enqueue(5);

    assertThat(b.next(0, false)).containsExactlyElementsOf(writes.subList(0, 3));
    assertThat(b.next(0, false)).containsExactlyElementsOf(writes.subList(3, 5));
    assertThat(b.inFlight()).isEqualTo(2);
  }

  @Test
  void oneWritePerMessageNeverWaits() throws Exception {
    Bundler b = new Bundler(queue, 1, 1 << 20);
    List<PendingWrite> writes = enqueue(3);

    for (PendingWrite w : writes) {
      assertThat(b.next(0, false)).containsExactly(w);
    }
    assertThat(b.inFlight()).isEqualTo(3);
  }

  @Test
  void drainingTakesOnlyWhatIsQueuedAndNeverWaitsForAWrite() throws Exception {
    Bundler b = new Bundler(queue, 256, 1 << 20);
    long start = System.nanoTime();
    assertThat(b.next(60_000, true)).isNull();
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(30));

    List<PendingWrite> writes = enqueue(2);
    assertThat(b.next(60_000, true)).containsExactlyElementsOf(writes);
  }

  @Test
  void anInterruptWhileWaitingForRoomRefusesTheWriteItHeld() throws Exception {
    Bundler b = withOneInFlight(256);
    PendingWrite held = enqueue(1).get(0);

    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    Thread waiter =
        new Thread(
            () -> {
              try {
                b.next(1_000, false);
                thrown.complete(null);
              } catch (Throwable t) {
                thrown.complete(t);
              }
            });
    waiter.start();
    while ((!queue.isEmpty() || waiter.getState() != Thread.State.TIMED_WAITING)
        && waiter.isAlive()) {
      Thread.onSpinWait(); // until it took the write and parked waiting for room
    }
    waiter.interrupt();

    assertThat(thrown.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    assertThat(held.done()).isCompletedExceptionally();
    assertThatThrownBy(() -> held.done().join()).hasCauseReference(Rejections.SHUTTING_DOWN);
    assertThat(b.inFlight()).isEqualTo(1);
  }

  @Test
  void drainHandsBackTheCarriedWriteFirstThenTheQueue() throws Exception {
    long oneReview = BundleGrouperTest.review().estimatedBytes();
    Bundler b = new Bundler(queue, 256, oneReview);
    List<PendingWrite> writes = enqueue(3);
    assertThat(b.next(0, false)).containsExactly(writes.get(0)); // the second is carried over

    assertThat(b.drain()).containsExactlyElementsOf(writes.subList(1, 3));
    assertThat(queue).isEmpty();
  }

  @Test
  void fourPublishersUnderLoadHandOutEveryWriteOnceInArrivalOrderWithinEachBundle()
      throws Exception {
    Bundler b = new Bundler(queue, 16, 1 << 20);
    int writes = 20_000;
    List<PendingWrite> sent = new ArrayList<>();
    List<List<PendingWrite>> bundles = Collections.synchronizedList(new ArrayList<>());
    ExecutorService publishers = Executors.newFixedThreadPool(4);
    AtomicBoolean producing = new AtomicBoolean(true);
    try {
      List<Future<?>> loops = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        loops.add(
            publishers.submit(
                () -> {
                  while (producing.get() || !queue.isEmpty()) {
                    List<PendingWrite> bundle = b.next(5, false);
                    if (bundle != null) {
                      bundles.add(bundle);
                      Thread.yield(); // "awaiting the confirm"
                      b.landed();
                    }
                  }
                  return null;
                }));
      }
      for (int i = 0; i < writes; i++) {
        PendingWrite w = BundleGrouperTest.review();
        sent.add(w);
        queue.add(w);
      }
      producing.set(false);
      for (Future<?> loop : loops) {
        loop.get(60, TimeUnit.SECONDS);
      }
    } finally {
      publishers.shutdownNow();
    }

    List<PendingWrite> handedOut = bundles.stream().flatMap(List::stream).toList();
    assertThat(handedOut).hasSize(writes).containsExactlyInAnyOrderElementsOf(sent);
    Map<PendingWrite, Integer> position = new IdentityHashMap<>();
    for (int i = 0; i < sent.size(); i++) {
      position.put(sent.get(i), i);
    }
    for (List<PendingWrite> bundle : bundles) {
      assertThat(bundle).hasSizeBetween(1, 16);
      assertThat(bundle.stream().map(position::get).toList()).isSorted();
    }
    assertThat(b.inFlight()).isZero();
  }

  private Bundler withOneInFlight(int bundleMax) throws InterruptedException {
    Bundler b = new Bundler(queue, bundleMax, 1 << 20);
    enqueue(1);
    assertThat(b.next(0, false)).hasSize(1);
    assertThat(b.inFlight()).isEqualTo(1);
    return b;
  }

  /**
   * {@link Bundler#next} on the other thread, once it has taken its write (leaving {@code left}
   * queued) and is waiting for room.
   */
  private Future<List<PendingWrite>> waitingInOtherThread(Bundler b, int left)
      throws InterruptedException {
    Future<List<PendingWrite>> next = other.submit(() -> b.next(1_000, false));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (queue.size() > left && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertThat(queue).hasSize(left);
    Thread.sleep(50); // a chance to go wrongly; a landing or a full bundle is the only way out
    assertThat(next).isNotDone();
    return next;
  }

  private List<PendingWrite> enqueue(int n) {
    List<PendingWrite> writes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      PendingWrite w = BundleGrouperTest.review();
      queue.add(w);
      writes.add(w);
    }
    return writes;
  }
}
