package org.albumstore.server.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.event.AlbumProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The grouping itself, with a planted source: a group forms while a query is in flight, a lone read
 * is asked alone with nothing to wait for, a failed query fails each GET of its group, and no GET
 * waits past its bound. Counted, never timed: the test's own waits are liveness bounds only.
 */
@Timeout(60)
class GroupReaderTest {
  private static final Duration LONG = Duration.ofSeconds(30);

  private final ThreadFactory threads =
      r -> {
        Thread t = new Thread(r, "group-reader-test");
        t.setDaemon(true);
        return t;
      };
  private final ExecutorService callers = Executors.newCachedThreadPool();
  private final List<Set<String>> groups = new CopyOnWriteArrayList<>();
  private GroupReader reader;

  @AfterEach
  void close() {
    if (reader != null) {
      reader.close();
    }
    callers.shutdownNow();
  }

  /** Counts n likes for every ID asked; the album "a-ID" exists, for album reads. */
  private GroupReader.Found answer(Set<String> countIds, Set<String> albumIds) {
    Set<String> asked = new LinkedHashSet<>(countIds);
    asked.addAll(albumIds);
    groups.add(asked);
    Map<String, ReviewCounts> counts = new HashMap<>();
    countIds.stream()
        .filter(id -> !id.startsWith("unknown"))
        .forEach(id -> counts.put(id, new ReviewCounts(7, 1)));
    Map<String, AlbumProfile> albums = new HashMap<>();
    albumIds.forEach(id -> albums.put(id, new AlbumProfile("artist " + id, "title", "2026")));
    return new GroupReader.Found(counts, albums);
  }

  private GroupReader start(int readers, GroupReader.Source source, Duration bound) {
    reader = new GroupReader(source, new ReadGroupSettings(readers, 256), bound, threads);
    return reader;
  }

  @Test
  void aLoneReadIsAskedAloneAtOnceWithNoOtherToWaitFor() throws Exception {
    start(1, this::answer, LONG);

    assertThat(reader.counts("r1")).contains(new ReviewCounts(7, 1));
    assertThat(reader.counts("unknown-1")).isEmpty();
    assertThat(reader.album("a1")).map(AlbumProfile::artist).contains("artist a1");

    // Each read went alone, in its own query: none waited for company that never came.
    assertThat(groups).containsExactly(Set.of("r1"), Set.of("unknown-1"), Set.of("a1"));
    assertThat(reader.queries()).isEqualTo(3);
  }

  @Test
  void readsArrivingWhileAQueryIsInFlightGoTogetherAsTheNextGroup() throws Exception {
    CountDownLatch inFlight = new CountDownLatch(1);
    CountDownLatch land = new CountDownLatch(1);
    start(
        1,
        (counts, albums) -> {
          if (groups.isEmpty()) {
            inFlight.countDown();
            hold(land);
          }
          return answer(counts, albums);
        },
        LONG);
    Future<Optional<ReviewCounts>> first = callers.submit(() -> reader.counts("first"));
    await(inFlight);
    List<Future<?>> next = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String id = "r" + (i % 10); // repeated IDs are asked once
      next.add(callers.submit(() -> reader.counts(id)));
    }
    next.add(callers.submit(() -> reader.album("a1")));
    awaitQueued(21);

    land.countDown();

    assertThat(first.get()).contains(new ReviewCounts(7, 1));
    for (Future<?> f : next) {
      assertThat(f.get()).isNotEqualTo(Optional.empty());
    }
    assertThat(reader.queries()).isEqualTo(2);
    assertThat(reader.answered()).isEqualTo(22);
    assertThat(groups.get(1)).hasSize(11).contains("r0", "r9", "a1");
  }

  @Test
  void manyConcurrentReadsTakeFewerQueriesThanReads() throws Exception {
    // A query that takes a moment, as a database round trip does: while it is in flight, the
    // other callers' reads queue and go together.
    start(
        2,
        (counts, albums) -> {
          hold(new CountDownLatch(1), Duration.ofMillis(1));
          return answer(counts, albums);
        },
        LONG);
    List<Future<?>> all = new ArrayList<>();
    for (int t = 0; t < 32; t++) {
      int caller = t;
      all.add(
          callers.submit(
              () -> {
                for (int i = 0; i < 25; i++) {
                  assertThat(reader.counts("c" + caller + "-" + i)).isPresent();
                }
                return null;
              }));
    }
    for (Future<?> f : all) {
      f.get();
    }
    assertThat(reader.answered()).isEqualTo(800);
    assertThat(reader.queries()).isLessThan(800 / 4);
  }

  @Test
  void aFailedQueryFailsEachReadOfItsGroupAndTheNextGroupIsAskedAfresh() throws Exception {
    CountDownLatch inFlight = new CountDownLatch(1);
    CountDownLatch land = new CountDownLatch(1);
    start(
        1,
        (counts, albums) -> {
          int n = groups.size();
          GroupReader.Found found = answer(counts, albums);
          if (n == 0) {
            inFlight.countDown();
            hold(land);
          }
          if (n == 1) {
            throw new SQLTransientConnectionException("connection refused");
          }
          return found;
        },
        LONG);
    Future<Optional<ReviewCounts>> first = callers.submit(() -> reader.counts("first"));
    await(inFlight);
    List<Future<Optional<ReviewCounts>>> failing = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String id = "f" + i;
      failing.add(callers.submit(() -> reader.counts(id)));
    }
    awaitQueued(5);
    land.countDown();

    assertThat(first.get()).isPresent();
    for (Future<Optional<ReviewCounts>> f : failing) {
      assertThatThrownBy(f::get)
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(ReadFailedException.class)
          .hasRootCauseInstanceOf(SQLException.class);
    }
    assertThat(reader.queries()).isEqualTo(2);
    assertThat(reader.counts("after")).isPresent(); // the reader lives on
  }

  @Test
  void noReadWaitsPastItsBoundAndAReaderSkipsTheOnesThatGaveUp() throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    start(
        1,
        (counts, albums) -> {
          if (groups.isEmpty()) {
            answer(counts, albums);
            hold(stuck); // a query that does not end by itself
          }
          return answer(counts, albums);
        },
        Duration.ofMillis(200));

    assertThatThrownBy(() -> reader.counts("stuck"))
        .isInstanceOf(ReadFailedException.class)
        .hasMessageContaining("no answer within 200 ms");
    assertThatThrownBy(() -> reader.counts("behind"))
        .isInstanceOf(ReadFailedException.class)
        .hasMessageContaining("no answer within 200 ms");

    stuck.countDown();
    assertThat(reader.counts("later")).isPresent();
    // "behind" gave up before a reader took it: it was never asked.
    assertThat(groups).containsExactly(Set.of("stuck"), Set.of("stuck"), Set.of("later"));
  }

  @Test
  void closingFailsTheQueuedReadsAndEveryLaterOne() throws Exception {
    CountDownLatch inFlight = new CountDownLatch(1);
    start(
        1,
        (counts, albums) -> {
          inFlight.countDown();
          hold(new CountDownLatch(1)); // until close() interrupts
          return answer(counts, albums);
        },
        LONG);
    Future<?> asked = callers.submit(() -> reader.counts("in-flight"));
    await(inFlight);
    Future<?> queued = callers.submit(() -> reader.counts("queued"));
    awaitQueued(1);

    reader.close();

    for (Future<?> f : List.of(asked, queued)) {
      assertThatThrownBy(f::get).cause().isInstanceOf(ReadFailedException.class);
    }
    assertThatThrownBy(() -> reader.counts("after"))
        .isInstanceOf(ReadFailedException.class)
        .hasMessageContaining("stopping");
  }

  private void awaitQueued(int n) throws InterruptedException {
    long deadline = System.nanoTime() + LONG.toNanos();
    while (reader.queued() < n) {
      assertThat(System.nanoTime()).as("%d reads queued", n).isLessThan(deadline);
      Thread.sleep(1);
    }
  }

  private static void await(CountDownLatch latch) throws InterruptedException {
    assertThat(latch.await(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
  }

  /** In a planted query: waits for {@code latch}; an interrupt fails the query, as JDBC's does. */
  private static void hold(CountDownLatch latch) throws SQLException {
    hold(latch, LONG);
  }

  private static void hold(CountDownLatch latch, Duration most) throws SQLException {
    try {
      latch.await(most.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted", e);
    }
  }
}
