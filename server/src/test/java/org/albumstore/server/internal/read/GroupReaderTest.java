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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.event.AlbumProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The grouping itself, with a planted source: a group forms while a query is in flight, a lone read
 * is asked alone on its own thread with nothing to wait for, a failed query fails each GET of its
 * group, no queued GET is asked past its bound, a GET /review holds no thread while queued, and
 * beyond the queue's bound one is refused at once. Counted, never timed: the test's own waits are
 * liveness bounds only.
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
  private final List<String> askedOn = new CopyOnWriteArrayList<>();
  private final CountDownLatch loneInFlight = new CountDownLatch(1);
  private final CountDownLatch loneLands = new CountDownLatch(1);
  private final CountDownLatch firstInFlight = new CountDownLatch(1);
  private final CountDownLatch firstLands = new CountDownLatch(1);
  private final Semaphore heldInFlight = new Semaphore(0);
  private final CountDownLatch heldLand = new CountDownLatch(1);
  private GroupReader reader;

  @AfterEach
  void close() {
    loneLands.countDown();
    firstLands.countDown();
    heldLand.countDown();
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
    askedOn.add(Thread.currentThread().getName());
    Map<String, ReviewCounts> counts = new HashMap<>();
    countIds.stream()
        .filter(id -> !id.startsWith("unknown"))
        .forEach(id -> counts.put(id, new ReviewCounts(7, 1)));
    Map<String, AlbumProfile> albums = new HashMap<>();
    albumIds.forEach(id -> albums.put(id, new AlbumProfile("artist " + id, "title", "2026")));
    return new GroupReader.Found(counts, albums);
  }

  private GroupReader start(int readers, GroupReader.Source source, Duration bound) {
    return start(readers, source, bound, 1000);
  }

  /** One lone query at a time: a read in flight alone sends the next one to a reader. */
  private GroupReader start(int readers, GroupReader.Source source, Duration bound, int queueMax) {
    return start(readers, 1, source, bound, queueMax);
  }

  private GroupReader start(
      int readers, int loneMax, GroupReader.Source source, Duration bound, int queueMax) {
    reader =
        new GroupReader(
            source, new ReadGroupSettings(readers, 256, loneMax), bound, queueMax, threads);
    return reader;
  }

  /** A GET /review as the servlet asks it ({@link GroupReader#countsLater}), waited for here. */
  private Optional<ReviewCounts> counts(String id) throws Exception {
    try {
      return reader.countsLater(id).get(LONG.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /**
   * A source that answers at once, except "lone" and "first": "lone" stays in flight until {@link
   * #loneLands}, so that the reads after it queue for the readers, and the reader's query for
   * "first" until {@link #firstLands}, so that the reads after it queue as its next group.
   */
  private GroupReader.Found answerOrHoldLone(Set<String> countIds, Set<String> albumIds)
      throws SQLException {
    GroupReader.Found found = answer(countIds, albumIds);
    if (countIds.contains("lone")) {
      loneInFlight.countDown();
      hold(loneLands);
    }
    if (countIds.contains("first")) {
      firstInFlight.countDown();
      hold(firstLands);
    }
    return found;
  }

  /**
   * Like {@link #answerOrHoldLone}, and every ID starting "held" stays in flight until {@link
   * #heldLand}, each one counted in {@link #heldInFlight} as it is asked.
   */
  private GroupReader.Found answerOrHold(Set<String> countIds, Set<String> albumIds)
      throws SQLException {
    if (countIds.stream().anyMatch(id -> id.startsWith("held"))) {
      GroupReader.Found found = answer(countIds, albumIds);
      heldInFlight.release();
      hold(heldLand);
      return found;
    }
    return answerOrHoldLone(countIds, albumIds);
  }

  /** A lone read in flight on a caller's thread, held there: what is asked next queues. */
  private Future<Optional<ReviewCounts>> loneReadInFlight() throws InterruptedException {
    Future<Optional<ReviewCounts>> lone = callers.submit(() -> counts("lone"));
    await(loneInFlight);
    return lone;
  }

  @Test
  void aLoneReadIsAskedAtOnceOnItsOwnThreadWithNoOtherToWaitFor() throws Exception {
    start(1, this::answer, LONG);

    // Asked and answered on this thread: the future is complete when countsLater returns.
    assertThat(reader.countsLater("r1")).isCompletedWithValue(Optional.of(new ReviewCounts(7, 1)));
    assertThat(counts("unknown-1")).isEmpty();
    assertThat(reader.album("a1")).map(AlbumProfile::artist).contains("artist a1");

    // Each read went alone, in its own query: none waited for company that never came, and none
    // was handed to a reader thread and back.
    assertThat(groups).containsExactly(Set.of("r1"), Set.of("unknown-1"), Set.of("a1"));
    assertThat(askedOn).containsOnly(Thread.currentThread().getName());
    assertThat(reader.queries()).isEqualTo(3);
  }

  @Test
  void aReadArrivingWhileAnotherIsInFlightGoesToAReader() throws Exception {
    start(1, this::answerOrHoldLone, LONG);
    Future<Optional<ReviewCounts>> lone = loneReadInFlight();

    assertThat(counts("next")).contains(new ReviewCounts(7, 1));

    assertThat(askedOn.get(1)).isEqualTo("group-reader-test");
    loneLands.countDown();
    assertThat(lone.get()).contains(new ReviewCounts(7, 1));
  }

  @Test
  void readsArrivingWhileAQueryIsInFlightGoTogetherAsTheNextGroup() throws Exception {
    start(1, this::answerOrHoldLone, LONG);
    Future<Optional<ReviewCounts>> lone = loneReadInFlight();
    Future<Optional<ReviewCounts>> first = callers.submit(() -> counts("first"));
    await(firstInFlight); // the reader is busy with "first"
    List<Future<?>> next = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String id = "r" + (i % 10); // repeated IDs are asked once
      next.add(callers.submit(() -> counts(id)));
    }
    next.add(callers.submit(() -> reader.album("a1")));
    awaitQueued(21);

    firstLands.countDown();

    assertThat(first.get()).contains(new ReviewCounts(7, 1));
    for (Future<?> f : next) {
      assertThat(f.get()).isNotEqualTo(Optional.empty());
    }
    assertThat(reader.queries()).isEqualTo(3); // the lone read's, "first"'s and the group's
    assertThat(reader.answered()).isEqualTo(22);
    assertThat(groups.get(2)).hasSize(11).contains("r0", "r9", "a1");
    loneLands.countDown();
    assertThat(lone.get()).isPresent();
  }

  @Test
  void aFewReadsArrivingTogetherEachAskAloneUpToLoneMaxAndTheNextGoesToAReader() throws Exception {
    start(1, 3, this::answerOrHold, LONG, 1000);
    List<Future<Optional<ReviewCounts>>> held = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String id = "held-" + i;
      held.add(callers.submit(() -> counts(id)));
      assertThat(heldInFlight.tryAcquire(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
    // Three in flight at once, each on its caller's thread: none waited for another's query.
    assertThat(askedOn).hasSize(3).doesNotContain("group-reader-test");

    assertThat(counts("fourth")).contains(new ReviewCounts(7, 1));
    assertThat(askedOn.get(3)).isEqualTo("group-reader-test");

    heldLand.countDown();
    for (Future<Optional<ReviewCounts>> f : held) {
      assertThat(f.get()).contains(new ReviewCounts(7, 1));
    }
    assertThat(reader.queries()).isEqualTo(4);
  }

  @Test
  void afterAGroupLargerThanLoneMaxReadsGoToTheReadersUntilAGroupIsSmallAgain() throws Exception {
    start(1, 2, this::answerOrHold, LONG, 1000);
    List<Future<?>> all = new ArrayList<>();
    for (int i = 0; i < 2; i++) { // the two lone slots, held
      String id = "held-" + i;
      all.add(callers.submit(() -> counts(id)));
      assertThat(heldInFlight.tryAcquire(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
    all.add(callers.submit(() -> counts("first"))); // to the reader, held there
    await(firstInFlight);
    for (int i = 0; i < 5; i++) {
      String id = "r" + i;
      all.add(callers.submit(() -> counts(id)));
    }
    awaitQueued(5);
    firstLands.countDown(); // the reader's next group: 5 reads, more than loneMax
    heldLand.countDown();
    for (Future<?> f : all) {
      assertThat(f.get()).isNotEqualTo(Optional.empty());
    }
    assertThat(groups.get(3)).hasSize(5);

    // Nothing in flight, nothing queued, but the last group was large: to a reader.
    assertThat(counts("after")).isPresent();
    assertThat(askedOn.get(4)).isEqualTo("group-reader-test");
    // That group held one read: the next asks alone again, on this thread.
    assertThat(reader.countsLater("alone-again"))
        .isCompletedWithValue(Optional.of(new ReviewCounts(7, 1)));
    assertThat(askedOn.get(5)).isEqualTo(Thread.currentThread().getName());
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
                  assertThat(counts("c" + caller + "-" + i)).isPresent();
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
    start(
        1,
        (counts, albums) -> {
          GroupReader.Found found = answerOrHoldLone(counts, albums);
          if (counts.contains("f0")) {
            throw new SQLTransientConnectionException("connection refused");
          }
          return found;
        },
        LONG);
    Future<Optional<ReviewCounts>> lone = loneReadInFlight();
    Future<Optional<ReviewCounts>> first = callers.submit(() -> counts("first"));
    await(firstInFlight);
    List<Future<Optional<ReviewCounts>>> failing = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String id = "f" + i;
      failing.add(callers.submit(() -> counts(id)));
    }
    awaitQueued(5);
    firstLands.countDown();

    assertThat(first.get()).isPresent();
    for (Future<Optional<ReviewCounts>> f : failing) {
      assertThatThrownBy(f::get)
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(ReadFailedException.class)
          .hasRootCauseInstanceOf(SQLException.class);
    }
    assertThat(reader.queries()).isEqualTo(3);
    assertThat(counts("after")).isPresent(); // the reader lives on
    loneLands.countDown();
    assertThat(lone.get()).isPresent();
  }

  @Test
  void aLoneReadsFailedQueryFailsItAndTheNextIsAskedAfresh() throws Exception {
    start(
        1,
        (counts, albums) -> {
          if (counts.contains("broken")) {
            throw new SQLTransientConnectionException("connection refused");
          }
          return answer(counts, albums);
        },
        LONG);

    assertThatThrownBy(() -> counts("broken"))
        .isInstanceOf(ReadFailedException.class)
        .hasRootCauseInstanceOf(SQLException.class);
    assertThat(counts("after")).isPresent();
  }

  @Test
  void noQueuedReadWaitsPastItsBoundAndAReaderSkipsTheOnesThatGaveUp() throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    start(
        1,
        (counts, albums) -> {
          GroupReader.Found found = answerOrHoldLone(counts, albums);
          if (albums.contains("stuck")) {
            hold(stuck); // a query that does not end by itself
          }
          return found;
        },
        Duration.ofMillis(200));
    Future<Optional<ReviewCounts>> lone = loneReadInFlight(); // what comes next queues

    // A GET that waits on its thread gives up at the bound, whether its query is in flight...
    assertThatThrownBy(() -> reader.album("stuck"))
        .isInstanceOf(ReadFailedException.class)
        .hasMessageContaining("no answer within 200 ms");
    // ... or it is still queued behind it; and so does one asked for later, once a reader is free.
    CompletableFuture<Optional<ReviewCounts>> queuedTooLong = reader.countsLater("too-long");
    assertThatThrownBy(() -> reader.album("behind"))
        .isInstanceOf(ReadFailedException.class)
        .hasMessageContaining("no answer within 200 ms");
    CompletableFuture<Optional<ReviewCounts>> givenUp = reader.countsLater("given-up");
    givenUp.cancel(false); // its caller stopped waiting (the servlet's timeout)

    stuck.countDown();
    assertThatThrownBy(() -> queuedTooLong.get(LONG.toSeconds(), TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(ReadFailedException.class)
        .hasMessageContaining("no answer within 200 ms");
    assertThat(counts("later")).isPresent();
    // None of the three that were given up or queued too long was asked.
    assertThat(groups).containsExactly(Set.of("lone"), Set.of("stuck"), Set.of("later"));
    loneLands.countDown();
    assertThat(lone.get()).isPresent();
  }

  @Test
  void aQueuedReadHoldsNoThreadAndItsReaderAnswersIt() throws Exception {
    start(1, this::answerOrHoldLone, LONG);
    Future<Optional<ReviewCounts>> lone = loneReadInFlight();

    CompletableFuture<Optional<ReviewCounts>> held = reader.countsLater("first");
    await(firstInFlight); // the reader asks for it
    assertThat(held).isNotDone(); // and countsLater has returned: no thread waits for it here
    firstLands.countDown();

    assertThat(held.get(LONG.toSeconds(), TimeUnit.SECONDS)).contains(new ReviewCounts(7, 1));
    assertThat(askedOn.get(1)).isEqualTo("group-reader-test");
    loneLands.countDown();
    assertThat(lone.get()).isPresent();
  }

  @Test
  void beyondTheQueuesBoundAReadIsRefusedAtOnce() throws Exception {
    start(1, this::answerOrHoldLone, LONG, 2);
    Future<Optional<ReviewCounts>> lone = loneReadInFlight();
    CompletableFuture<Optional<ReviewCounts>> first = reader.countsLater("first");
    await(firstInFlight);
    List<CompletableFuture<Optional<ReviewCounts>>> queued =
        List.of(reader.countsLater("q1"), reader.countsLater("q2"));

    CompletableFuture<Optional<ReviewCounts>> refused = reader.countsLater("q3");

    assertThat(refused).isCompletedExceptionally();
    assertThatThrownBy(refused::join).cause().isInstanceOf(ReadRefusedException.class);
    firstLands.countDown();
    assertThat(first.get(LONG.toSeconds(), TimeUnit.SECONDS)).isPresent();
    for (CompletableFuture<Optional<ReviewCounts>> q : queued) {
      assertThat(q.get(LONG.toSeconds(), TimeUnit.SECONDS)).isPresent();
    }
    assertThat(groups).noneMatch(g -> g.contains("q3"));
    loneLands.countDown();
    assertThat(lone.get()).isPresent();
  }

  @Test
  void closingFailsTheQueuedReadsAndEveryLaterOne() throws Exception {
    CountDownLatch inFlight = new CountDownLatch(1);
    start(
        1,
        (counts, albums) -> {
          GroupReader.Found found = answerOrHoldLone(counts, albums);
          if (counts.contains("in-flight")) {
            inFlight.countDown();
            hold(new CountDownLatch(1)); // until close() interrupts
          }
          return found;
        },
        LONG);
    Future<Optional<ReviewCounts>> lone = loneReadInFlight();
    Future<?> asked = callers.submit(() -> counts("in-flight"));
    await(inFlight);
    Future<?> queued = callers.submit(() -> counts("queued"));
    awaitQueued(1);

    reader.close();

    for (Future<?> f : List.of(asked, queued)) {
      assertThatThrownBy(f::get).cause().isInstanceOf(ReadFailedException.class);
    }
    assertThatThrownBy(() -> counts("after"))
        .isInstanceOf(ReadFailedException.class)
        .hasMessageContaining("stopping");
    loneLands.countDown();
    assertThat(lone.get()).isPresent(); // a lone read in flight ends as its query does
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
