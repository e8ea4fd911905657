package org.albumstore.client.internal.workload;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The time in which readers run. Opening and closing race (the first group may end just as the last
 * writer does), so both happen under one lock: once closed, the window never opens.
 */
final class ReaderWindow {
  private static final Logger log = LoggerFactory.getLogger(ReaderWindow.class);

  private boolean open;
  private boolean closed;
  private List<Thread> readers = List.of();

  /** Opens the window and starts the readers, unless it was already closed. */
  synchronized void openWith(Supplier<List<Thread>> startReaders) {
    if (closed) {
      return;
    }
    open = true;
    readers = startReaders.get();
  }

  synchronized boolean isOpen() {
    return open && !closed;
  }

  synchronized void close() {
    closed = true;
  }

  /** Waits, bounded, for the readers to finish the request they are in. */
  void awaitReaders(Duration limit) throws InterruptedException {
    List<Thread> started;
    synchronized (this) {
      started = readers;
    }
    long deadline = System.nanoTime() + limit.toNanos();
    for (Thread r : started) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        r.join(Math.max(1, left / 1_000_000));
      }
      if (r.isAlive()) {
        log.warn(
            "{} still busy {} s after the writers finished; left behind",
            r.getName(),
            limit.toSeconds());
      }
    }
  }
}
