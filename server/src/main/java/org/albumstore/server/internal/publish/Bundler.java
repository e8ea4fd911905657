package org.albumstore.server.internal.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hands the publisher threads their bundles, and decides when the next bundle may go in flight.
 *
 * <p>Why not every idle channel at once: the broker's cost is mostly per message (each persistent
 * message is written and synced, and its confirm is a round trip of its own), not per write. If
 * every idle channel took whatever is waiting, N channels would split the writes of one confirm
 * round into N smaller messages and make the broker pay N times. So the next bundle goes in flight
 * only when no other bundle is, or when a full bundle is already waiting ({@code bundleMax} writes,
 * or a write carried over because the last bundle was cut short by its byte limit or a repeated
 * Idempotency-Key): then one message per confirm round cannot carry the load, and another channel
 * adds throughput rather than just messages. This is a database log writer's group commit: one
 * flush at a time, and whatever arrives meanwhile rides in the next. Measured against every idle
 * channel publishing at once: results/server-cpu-ab/ (in-flight.csv).
 *
 * <p>One publisher thread at a time holds the turn: it takes the oldest write, waits for room,
 * groups, and only then lets the next thread take the turn. So bundles leave in arrival order, and
 * the write carried over from one bundle starts the next, whichever thread publishes it.
 */
final class Bundler {
  /**
   * How often the thread holding the turn looks whether a full bundle has piled up meanwhile. A
   * landed bundle wakes it at once; only the rarer full-bundle case waits for this check, and the
   * check runs only while a bundle is in flight and a write waits.
   */
  private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final BlockingQueue<PendingWrite> queue;
  private final BundleGrouper grouper;
  private final int bundleMax;
  private final ReentrantLock turn = new ReentrantLock();
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile Thread awaitingRoom;

  Bundler(BlockingQueue<PendingWrite> queue, int bundleMax, long bundleBytes) {
    this.queue = queue;
    this.grouper = new BundleGrouper(bundleMax, bundleBytes);
    this.bundleMax = bundleMax;
  }

  /**
   * The next bundle, counted in flight from now on: the caller must call {@link #landed} once the
   * broker answered it (or it was never sent).
   *
   * @param pollMs how long to wait for a first write
   * @param draining true while the publisher stops: take only what is queued already, never wait
   * @return the bundle, or null when no write came
   * @throws InterruptedException with no write taken (a taken one is refused as shutting down)
   */
  List<PendingWrite> next(long pollMs, boolean draining) throws InterruptedException {
    turn.lockInterruptibly();
    try {
      PendingWrite first = grouper.takeCarried();
      boolean carried = first != null;
      if (first == null) {
        first = draining ? queue.poll() : queue.poll(pollMs, TimeUnit.MILLISECONDS);
        if (first == null) {
          return null;
        }
      }
      try {
        awaitRoom(carried);
      } catch (InterruptedException e) {
        first.reject(Rejections.SHUTTING_DOWN);
        throw e;
      }
      List<PendingWrite> bundle = grouper.group(first, queue::poll);
      inFlight.incrementAndGet();
      return bundle;
    } finally {
      turn.unlock();
    }
  }

  /** A bundle from {@link #next} has its broker answer (or failed before it was sent). */
  void landed() {
    inFlight.decrementAndGet();
    Thread waiting = awaitingRoom;
    if (waiting != null) {
      LockSupport.unpark(waiting);
    }
  }

  /** Bundles handed out and not landed yet. */
  int inFlight() {
    return inFlight.get();
  }

  /**
   * What no publisher thread will take any more (the carried write, then the queue), for the caller
   * to refuse; only once the publisher threads have ended.
   */
  List<PendingWrite> drain() {
    List<PendingWrite> left = new ArrayList<>();
    PendingWrite carried = grouper.takeCarried();
    if (carried != null) {
      left.add(carried);
    }
    queue.drainTo(left);
    return left;
  }

  private void awaitRoom(boolean carried) throws InterruptedException {
    if (carried || !mustWait()) {
      return;
    }
    awaitingRoom = Thread.currentThread();
    try {
      while (mustWait()) {
        // landed() unparks; a permit given before this park makes it return at once.
        LockSupport.parkNanos(this, RECHECK_NANOS);
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
      }
    } finally {
      awaitingRoom = null;
    }
  }

  /** Another bundle is in flight and less than a full bundle waits (the held write counts). */
  private boolean mustWait() {
    return inFlight.get() > 0 && queue.size() + 1 < bundleMax;
  }
}
