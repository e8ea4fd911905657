package org.albumstore.local;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts started so far, stopped newest first. Two threads use it: the launcher's main thread,
 * which adds parts as it starts them and closes the stack at the end, and the thread that handles
 * Ctrl-C, which may close it at any moment, even while a part is still starting.
 *
 * <p>The rule that keeps anything from outliving the run: once closing has begun, a part that
 * finishes starting is not added but stopped at once, and its starter gets {@link
 * StoppedException}. Only the first {@link #close(Duration)} does the work; a second caller waits
 * for it, bounded.
 */
final class LocalStack {
  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);

  /**
   * Longer than any part's own bound: the consumer's (15 s for its workers, 5 s a connection), a
   * RabbitMQ cluster's (its nodes stop at once, each within 25 s before it is killed, and the kill
   * waits 10 s at most).
   */
  static final Duration PART_STOP_LIMIT = Duration.ofSeconds(45);

  private final PrintStream out;
  private final Deque<Part> parts = new ArrayDeque<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private boolean closing; // guarded by this

  private record Part(String name, AutoCloseable resource) {}

  LocalStack(PrintStream out) {
    this.out = out;
  }

  /** The run was stopped (Ctrl-C) before it could finish. */
  static final class StoppedException extends RuntimeException {
    StoppedException(String what) {
      super(what);
    }
  }

  /**
   * Adds a started part, to be stopped with the stack.
   *
   * @throws StoppedException if the stack is already closing; the part has been stopped
   */
  <T extends AutoCloseable> T add(String name, T resource) {
    synchronized (this) {
      if (!closing) {
        parts.push(new Part(name, resource));
        return resource;
      }
    }
    stop(new Part(name, resource));
    throw new StoppedException("stopped while starting the " + name);
  }

  /** Throws {@link StoppedException} if closing has begun: no point starting the next part. */
  synchronized void checkRunning(String next) {
    if (closing) {
      throw new StoppedException("stopped before starting the " + next);
    }
  }

  /**
   * Stops every part, newest first, each even if another failed.
   *
   * @return false if another thread is closing and did not finish within {@code limit}
   */
  boolean close(Duration limit) {
    boolean first;
    synchronized (this) {
      first = !closing;
      closing = true;
    }
    if (!first) {
      return awaitClosed(limit); // outside the lock: the first closer needs it to take each part
    }
    try {
      Part next;
      while ((next = poll()) != null) {
        stop(next);
      }
    } finally {
      closed.countDown();
    }
    return true;
  }

  private synchronized Part poll() {
    return parts.poll();
  }

  private boolean awaitClosed(Duration limit) {
    try {
      return closed.await(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Stops one part, reporting a failure, and gives up on it after {@link #PART_STOP_LIMIT}: each
   * part bounds its own stop (consumer workers, Tomcat, pg_ctl), but one stuck anyway must not keep
   * the others running. The stop runs on a daemon thread so that a stuck one cannot keep the JVM
   * alive either.
   */
  private void stop(Part p) {
    long t0 = System.nanoTime();
    CompletableFuture<Void> stopped = closeInBackground(p);
    boolean interrupted = false;
    long deadline = t0 + PART_STOP_LIMIT.toNanos();
    try {
      while (true) {
        try {
          stopped.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          out.printf(
              Locale.ROOT, "stopped %s (%.1f s)%n", p.name(), (System.nanoTime() - t0) / 1e9);
          return;
        } catch (InterruptedException e) {
          interrupted = true; // stopping is what an interrupt asks for anyway: keep waiting
        } catch (ExecutionException e) {
          log.error("stopping the {} failed", p.name(), e.getCause());
          out.println("stopping the " + p.name() + " failed: " + e.getCause());
          return;
        } catch (TimeoutException e) {
          reportGaveUp(p);
          return;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Closes the part on a daemon thread of its own; the future completes when the close ends. */
  private static CompletableFuture<Void> closeInBackground(Part p) {
    CompletableFuture<Void> stopped = new CompletableFuture<>();
    Thread stopper =
        new Thread(
            () -> {
              try {
                p.resource().close();
                stopped.complete(null);
              } catch (Throwable e) {
                stopped.completeExceptionally(e);
              }
            },
            "albumstore-local-stop-" + p.name().replace(' ', '-'));
    stopper.setDaemon(true);
    stopper.start();
    return stopped;
  }

  private void reportGaveUp(Part p) {
    log.error(
        "the {} did not stop within {} s; going on without it",
        p.name(),
        PART_STOP_LIMIT.toSeconds());
    out.println(
        "gave up waiting for the " + p.name() + " after " + PART_STOP_LIMIT.toSeconds() + " s");
  }
}
