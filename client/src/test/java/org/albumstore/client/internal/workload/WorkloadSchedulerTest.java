package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Drives the scheduler with fake tasks that log what happens; the assertions are on the order of
 * events only, never on durations.
 */
class WorkloadSchedulerTest {
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());

  private int indexOf(String event) {
    int i = events.indexOf(event);
    assertThat(i).as("event %s in %s", event, events).isGreaterThanOrEqualTo(0);
    return i;
  }

  private WorkloadListener recording() {
    return new WorkloadListener() {
      @Override
      public void groupStarted(int group, int threads) {
        events.add("group " + group + " started with " + threads);
      }

      @Override
      public void readersStarted(int readers) {
        events.add("readers started: " + readers);
      }

      @Override
      public void writersFinished() {
        events.add("writers finished");
      }
    };
  }

  private Runnable writer(int index, int groupSize, long workMillis) {
    return () -> {
      events.add("writer " + index + " (group " + index / groupSize + ") begins");
      try {
        Thread.sleep(workMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      events.add("writer " + index + " (group " + index / groupSize + ") ends");
    };
  }

  private Runnable reader(BooleanSupplier keepReading, AtomicInteger reads) {
    return () -> {
      events.add("reader begins");
      while (keepReading.getAsBoolean()) {
        reads.incrementAndGet();
        Thread.onSpinWait();
      }
      events.add("reader ends");
    };
  }

  @Test
  void groupsStartInOrderAndEveryWriterRuns() throws Exception {
    ThreadGroupPlan plan = new ThreadGroupPlan(3, 4, Duration.ofMillis(20), 0);
    WorkloadScheduler s =
        new WorkloadScheduler(plan, i -> writer(i, 3, 5), keepReading -> () -> {}, recording());
    s.run();
    for (int g = 0; g < 4; g++) {
      assertThat(events).contains("group " + g + " started with 3");
    }
    for (int g = 1; g < 4; g++) {
      assertThat(indexOf("group " + (g - 1) + " started with 3"))
          .isLessThan(indexOf("group " + g + " started with 3"));
    }
    assertThat(events.stream().filter(e -> e.endsWith(" ends")).count()).isEqualTo(12);
    assertThat(indexOf("writers finished")).isEqualTo(events.size() - 1);
    assertThat(s.crashedThreads()).isZero();
  }

  @Test
  void theNextGroupStartsOnlyAfterTheDelayEvenIfTheFirstIsStillBusy() throws Exception {
    // Writers of group 0 block until group 1 has started: if the scheduler waited for group 0 to
    // finish before starting group 1, this would never end; the latch bounds it.
    CountDownLatch group1Started = new CountDownLatch(1);
    ThreadGroupPlan plan = new ThreadGroupPlan(2, 2, Duration.ofMillis(10), 0);
    WorkloadListener listener =
        new WorkloadListener() {
          @Override
          public void groupStarted(int group, int threads) {
            events.add("group " + group + " started");
            if (group == 1) {
              group1Started.countDown();
            }
          }
        };
    WorkloadScheduler s =
        new WorkloadScheduler(
            plan,
            i ->
                () -> {
                  try {
                    if (i < 2) {
                      assertThat(group1Started.await(10, TimeUnit.SECONDS)).isTrue();
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  events.add("writer " + i + " ends");
                },
            keepReading -> () -> {},
            listener);
    s.run();
    assertThat(indexOf("group 1 started")).isLessThan(indexOf("writer 0 ends"));
    assertThat(s.crashedThreads()).isZero();
  }

  @Test
  void readersRunFromTheEndOfTheFirstGroupUntilAllWritersFinish() throws Exception {
    // Group 0 is quick, the later groups are slower, so there is a window for the readers.
    ThreadGroupPlan plan = new ThreadGroupPlan(2, 3, Duration.ofMillis(30), 2);
    AtomicInteger reads = new AtomicInteger();
    WorkloadScheduler s =
        new WorkloadScheduler(
            plan,
            i -> writer(i, 2, i < 2 ? 5 : 100),
            keepReading -> reader(keepReading, reads),
            recording());
    s.run();

    int lastFirstGroupEnd =
        Math.max(indexOf("writer 0 (group 0) ends"), indexOf("writer 1 (group 0) ends"));
    int readersStarted = indexOf("readers started: 2");
    assertThat(readersStarted).isGreaterThan(lastFirstGroupEnd);
    assertThat(events.indexOf("reader begins")).isGreaterThan(readersStarted);
    int lastWriterEnd = 0;
    for (int i = 0; i < 6; i++) {
      lastWriterEnd =
          Math.max(lastWriterEnd, indexOf("writer " + i + " (group " + i / 2 + ") ends"));
    }
    int writersFinished = indexOf("writers finished");
    assertThat(writersFinished).isGreaterThan(lastWriterEnd);
    assertThat(events.lastIndexOf("reader ends")).isGreaterThan(writersFinished);
    assertThat(events.stream().filter("reader ends"::equals).count())
        .as("run() returns only after the readers have stopped")
        .isEqualTo(2);
    assertThat(reads.get()).isPositive();
  }

  @Test
  void withASingleGroupThereIsNoReaderWindow() throws Exception {
    ThreadGroupPlan plan = new ThreadGroupPlan(2, 1, Duration.ZERO, 3);
    AtomicInteger reads = new AtomicInteger();
    WorkloadScheduler s =
        new WorkloadScheduler(
            plan, i -> writer(i, 2, 1), keepReading -> reader(keepReading, reads), recording());
    s.run();
    assertThat(reads.get()).isZero();
    if (events.contains("readers started: 3")) {
      // The first group's end and the last writer's end are the same moment; if the readers got
      // in first, they must already have been told to stop.
      assertThat(events.lastIndexOf("reader ends")).isGreaterThan(indexOf("writers finished"));
    }
  }

  @Test
  void aStopRequestPreventsFurtherGroupsFromStarting() throws Exception {
    ThreadGroupPlan plan = new ThreadGroupPlan(1, 5, Duration.ofSeconds(30), 0);
    WorkloadScheduler[] holder = new WorkloadScheduler[1];
    holder[0] =
        new WorkloadScheduler(
            plan,
            i ->
                () -> {
                  events.add("writer " + i + " ends");
                  holder[0].requestStop();
                },
            keepReading -> () -> {},
            recording());
    holder[0].run(); // would take 2 minutes if the stop did not cut the delay short
    assertThat(events).contains("group 0 started with 1").doesNotContain("group 1 started with 1");
    assertThat(holder[0].stopped()).isTrue();
  }

  @Test
  void aWriterThatThrowsIsCountedAndTheRunStillEnds() throws Exception {
    ThreadGroupPlan plan = new ThreadGroupPlan(2, 1, Duration.ZERO, 0);
    WorkloadScheduler s =
        new WorkloadScheduler(
            plan,
            i ->
                () -> {
                  if (i == 1) {
                    throw new IllegalStateException("bug in writer 1");
                  }
                },
            keepReading -> () -> {},
            WorkloadListener.NONE);
    s.run();
    assertThat(s.crashedThreads()).isEqualTo(1);
  }
}
