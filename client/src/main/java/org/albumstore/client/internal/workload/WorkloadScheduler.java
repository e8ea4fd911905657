package org.albumstore.client.internal.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the thread groups: starts group 0, waits {@code delay}, starts group 1, ... until every
 * group runs, then waits for all writers. Readers run from the moment the first group has finished
 * until every writer has finished (the course's definition); if the first group is also the last,
 * there is no such window and no reader runs.
 *
 * <p>The scheduler knows nothing about HTTP: writers and readers are tasks made by the caller,
 * which is what lets its tests drive it with fakes.
 */
public final class WorkloadScheduler {
  private static final Logger log = LoggerFactory.getLogger(WorkloadScheduler.class);

  /** How long stopped readers may take to finish their request in flight. */
  private static final Duration READER_STOP_WAIT = Duration.ofSeconds(60);

  private final ThreadGroupPlan plan;
  private final IntFunction<Runnable> writerTask;
  private final Function<BooleanSupplier, Runnable> readerTask;
  private final WorkloadListener listener;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final AtomicInteger crashed = new AtomicInteger();

  /** Start and end of the writers, {@link System#nanoTime()}. */
  public record Times(long startNanos, long endNanos) {
    public double seconds() {
      return (endNanos - startNanos) / 1e9;
    }
  }

  /**
   * @param writerTask makes the task of writer {@code i} (0-based over all groups)
   * @param readerTask makes a reader's task from "keep reading?"; the task must return soon after
   *     that turns false
   */
  public WorkloadScheduler(
      ThreadGroupPlan plan,
      IntFunction<Runnable> writerTask,
      Function<BooleanSupplier, Runnable> readerTask,
      WorkloadListener listener) {
    this.plan = plan;
    this.writerTask = writerTask;
    this.readerTask = readerTask;
    this.listener = listener;
  }

  /** Asks the run to end early: no further group starts; tasks should watch {@link #stopped()}. */
  public void requestStop() {
    stop.countDown();
  }

  public boolean stopped() {
    return stop.getCount() == 0;
  }

  /** Tasks that ended with an exception (a bug: each one is logged). */
  public int crashedThreads() {
    return crashed.get();
  }

  public Times run() throws InterruptedException {
    long start = System.nanoTime();
    List<Thread> writers = new ArrayList<>(plan.writers());
    ReaderWindow window = new ReaderWindow();
    Thread starter = null;
    for (int g = 0; g < plan.groups(); g++) {
      if (g > 0 && stop.await(plan.delay().toNanos(), TimeUnit.NANOSECONDS)) {
        log.info("stop requested: groups {} to {} not started", g + 1, plan.groups());
        break;
      }
      List<Thread> group = new ArrayList<>(plan.groupSize());
      for (int t = 0; t < plan.groupSize(); t++) {
        int index = g * plan.groupSize() + t;
        group.add(newThread("writer-" + index, writerTask.apply(index), false));
      }
      group.forEach(Thread::start);
      writers.addAll(group);
      listener.groupStarted(g, group.size());
      // One group: its end is the writers' end, there is no window (starting readers anyway
      // would let them slip in a few reads before the window closes).
      if (g == 0 && plan.readers() > 0 && plan.groups() > 1) {
        starter = newThread("reader-starter", () -> startReadersAfter(group, window), true);
        starter.start();
      }
    }
    for (Thread w : writers) {
      w.join();
    }
    long end = System.nanoTime();
    listener.writersFinished();
    window.close();
    if (starter != null) {
      starter.join();
    }
    window.awaitReaders(READER_STOP_WAIT);
    return new Times(start, end);
  }

  private void startReadersAfter(List<Thread> firstGroup, ReaderWindow window) {
    try {
      for (Thread t : firstGroup) {
        t.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    BooleanSupplier keepReading = () -> window.isOpen() && !stopped();
    window.openWith(
        () -> {
          List<Thread> readers = new ArrayList<>();
          for (int r = 0; r < plan.readers(); r++) {
            readers.add(newThread("reader-" + r, readerTask.apply(keepReading), true));
          }
          listener.readersStarted(readers.size());
          readers.forEach(Thread::start);
          return readers;
        });
  }

  private Thread newThread(String name, Runnable task, boolean daemon) {
    Thread t =
        new Thread(
            () -> {
              try {
                task.run();
              } catch (RuntimeException | Error e) {
                crashed.incrementAndGet();
                log.error("{} died", Thread.currentThread().getName(), e);
              }
            },
            name);
    t.setDaemon(daemon);
    return t;
  }
}
