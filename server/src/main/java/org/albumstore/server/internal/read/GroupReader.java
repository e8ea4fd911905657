package org.albumstore.server.internal.read;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.albumstore.common.event.AlbumProfile;

/**
 * Answers the GETs that arrive together with one query for all their album IDs: group commit, as
 * the publisher does for writes ({@code publish/Bundler}), applied to reads.
 *
 * <p>Why: for a primary-key lookup, PostgreSQL spends most of its time on the statement around it
 * (waking up, binding, replying), and the server on borrowing and returning a pool connection;
 * asking once for many IDs pays those costs once per group.
 *
 * <p>How: a GET queues its album ID; each of {@code readers} threads takes the oldest queued GET
 * and every other one queued at that moment (up to {@code groupMax}), asks the database once on a
 * connection it borrows for the group, and answers each. The group forms by itself: a reader never
 * waits for company; while a query is in flight, arrivals queue, and the next free reader takes
 * them all. A {@code GET /review} ({@link #countsLater}) does not wait on its request thread: its
 * answer is a future the reader completes, and the servlet writes the response from there, so no
 * request thread is parked per GET and woken by the reader. A GET of an album and the waiting
 * reads' poll ({@link #album}, {@link #albums}) wait for theirs on their threads. Each kind of GET
 * has its own answer type ({@link Kind}), so a reader completes each future with what its GET
 * asked.
 *
 * <p>A lone GET: when nothing is queued and fewer than {@code loneMax} queries are in flight (the
 * readers' included), the GET asks its own one-row query on its own thread instead of waking a
 * reader and waiting to be woken (two thread hand-offs, each a wait for a CPU on a busy machine).
 * Only while reads arrive alone: once a reader's group held more than {@code loneMax} GETs, every
 * GET queues for the readers until a group holds {@code loneMax} or fewer again, so that under load
 * the lone queries do not take the statements the groups save.
 *
 * <p>Consistency: a reader takes a GET only after it was queued, and asks only after it took it, so
 * every answer comes from a statement that began after its GET arrived (a lone GET's own query
 * too): one GET's answer is never older than another's that was answered before it was sent, on any
 * server, as with one statement per GET against the one primary.
 *
 * <p>Failures: when the query fails (database down, timeout), every GET of the group gets {@link
 * ReadFailedException}, which the servlets answer 503. No queued GET is asked once it has waited
 * longer than {@code waitBound}: a reader fails it with that exception instead, and skips the ones
 * whose caller gave up (completed its future, or stopped waiting). A GET that waits on its thread
 * gives up at {@code waitBound}; one asked through {@link #countsLater} is bounded by its caller
 * (the servlet's async timeout). More than {@code queueMax} GETs queued: {@link #countsLater}
 * refuses the next at once ({@link ReadRefusedException}). A lone GET's own query is bounded as a
 * reader's is, by the pool's wait and the query's timeout.
 */
public final class GroupReader implements AutoCloseable {

  /** What the reader asks the database for one group (JDBC in the server; planted in tests). */
  public interface Source {
    /**
     * The counts of those of {@code countIds} that exist (zeros for an album without reviews) and
     * the profiles of those of {@code albumIds} that exist, from one consistent view.
     */
    Found read(Set<String> countIds, Set<String> albumIds) throws SQLException;
  }

  /** What one group's query found, by album ID; an ID absent from a map was not found. */
  public record Found(Map<String, ReviewCounts> counts, Map<String, AlbumProfile> albums) {}

  /**
   * A kind of GET and the type of its answer: which IDs of a group's query it adds to, and which of
   * the query's maps answers it.
   */
  private static final class Kind<T> {
    static final Kind<ReviewCounts> COUNTS = new Kind<>(true, Found::counts);
    static final Kind<AlbumProfile> ALBUM = new Kind<>(false, Found::albums);

    private final boolean counts;
    private final Function<Found, Map<String, T>> answers;

    private Kind(boolean counts, Function<Found, Map<String, T>> answers) {
      this.counts = counts;
      this.answers = answers;
    }

    /** Adds {@code albumId} to the IDs a group's query asks for this kind. */
    void ask(String albumId, Set<String> countIds, Set<String> albumIds) {
      (counts ? countIds : albumIds).add(albumId);
    }

    /** A lone GET's query: {@code albumId} alone, asked for this kind. */
    Found readAlone(Source source, String albumId) throws SQLException {
      Set<String> id = Set.of(albumId);
      return counts ? source.read(id, Set.of()) : source.read(Set.of(), id);
    }

    /** The answer for {@code albumId} in what a query found: empty when it was not found. */
    Optional<T> answerIn(Found found, String albumId) {
      return Optional.ofNullable(answers.apply(found).get(albumId));
    }
  }

  /** One GET's question, when it was queued, and its answer or failure. */
  private record Pending<T>(
      Kind<T> kind, String albumId, long queuedAt, CompletableFuture<Optional<T>> answer) {

    /** Completes the answer from what the group's query found. */
    void answerFrom(Found found) {
      answer.complete(kind.answerIn(found, albumId));
    }
  }

  private final Source source;
  private final int groupMax;
  private final long waitBoundNanos;
  private final int queueMax;
  private final int loneMax;
  private final BlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
  private final List<Thread> readers = new ArrayList<>();
  private final LongAdder queries = new LongAdder();
  private final LongAdder answered = new LongAdder();

  /** Queries in flight: the readers' and the lone GETs'. */
  private final AtomicInteger asking = new AtomicInteger();

  /** GETs in the readers' last group: more than {@code loneMax}, and no GET asks alone. */
  private volatile int lastGroup;

  private volatile boolean closed;

  /**
   * @param settings how many readers, and the most GETs per query
   * @param waitBound the longest a GET waits for its answer (queued, then its group's query)
   * @param queueMax most GETs queued for a reader; beyond, {@link #countsLater} refuses
   * @param threads creates the reader threads (daemon, named); started at once
   */
  public GroupReader(
      Source source,
      ReadGroupSettings settings,
      Duration waitBound,
      int queueMax,
      ThreadFactory threads) {
    this.source = source;
    this.groupMax = settings.groupMax();
    this.waitBoundNanos = waitBound.toNanos();
    this.queueMax = queueMax;
    this.loneMax = settings.loneMax();
    for (int i = 0; i < settings.readers(); i++) {
      Thread t = threads.newThread(this::readLoop);
      readers.add(t);
    }
    readers.forEach(Thread::start);
  }

  /**
   * The album's counts (zeros for a known album without reviews), or empty when unknown, without
   * waiting for them on this thread. A lone GET's own query runs here, and its future is complete
   * on return; a queued GET's is completed by the reader that answers its group, on that thread.
   * The future fails with {@link ReadFailedException} (the query failed, or the GET was queued past
   * {@code waitBound}) or {@link ReadRefusedException} ({@code queueMax} GETs already queued).
   * Completing it first (a caller that gives up) tells a reader not to ask for it.
   */
  public CompletableFuture<Optional<ReviewCounts>> countsLater(String albumId) {
    if (mayGoAlone()) {
      try {
        return CompletableFuture.completedFuture(alone(Kind.COUNTS, albumId));
      } catch (ReadFailedException e) {
        return CompletableFuture.failedFuture(e);
      } finally {
        asking.decrementAndGet();
      }
    }
    if (queue.size() >= queueMax) {
      return CompletableFuture.failedFuture(new ReadRefusedException(queueMax));
    }
    return queue(Kind.COUNTS, albumId).answer();
  }

  /** The album's profile, or empty when no album has this ID (yet). */
  public Optional<AlbumProfile> album(String albumId) throws ReadFailedException {
    return ask(Kind.ALBUM, albumId);
  }

  /** The profiles of those of {@code albumIds} that exist, by ID; queued together. */
  public Map<String, AlbumProfile> albums(Collection<String> albumIds) throws ReadFailedException {
    List<Pending<AlbumProfile>> asked = new ArrayList<>();
    for (String id : albumIds) {
      asked.add(queue(Kind.ALBUM, id));
    }
    long deadline = System.nanoTime() + waitBoundNanos;
    Map<String, AlbumProfile> found = new HashMap<>();
    for (Pending<AlbumProfile> p : asked) {
      await(p, deadline).ifPresent(a -> found.put(p.albumId(), a));
    }
    return found;
  }

  private <T> Optional<T> ask(Kind<T> kind, String albumId) throws ReadFailedException {
    if (mayGoAlone()) {
      try {
        return alone(kind, albumId);
      } finally {
        asking.decrementAndGet();
      }
    }
    return await(queue(kind, albumId), System.nanoTime() + waitBoundNanos);
  }

  /**
   * True, holding an in-flight slot, when nothing is queued, the readers' last group was no larger
   * than {@code loneMax}, and fewer than {@code loneMax} queries (the readers' and the lone GETs')
   * are in flight.
   */
  private boolean mayGoAlone() {
    if (closed || !queue.isEmpty() || lastGroup > loneMax) {
      return false;
    }
    for (int n = asking.get(); n < loneMax; n = asking.get()) {
      if (asking.compareAndSet(n, n + 1)) {
        return true;
      }
    }
    return false;
  }

  /** A lone GET's own query, on its own thread (nothing queued, few others in flight). */
  private <T> Optional<T> alone(Kind<T> kind, String albumId) throws ReadFailedException {
    Found found;
    try {
      queries.increment();
      found = kind.readAlone(source, albumId);
    } catch (SQLException | RuntimeException e) {
      throw new ReadFailedException("a read failed", e);
    }
    answered.increment();
    return kind.answerIn(found, albumId);
  }

  private <T> Pending<T> queue(Kind<T> kind, String albumId) {
    Pending<T> p = new Pending<>(kind, albumId, System.nanoTime(), new CompletableFuture<>());
    queue.add(p);
    if (closed) {
      fail(p, new ReadFailedException("the server is stopping", null)); // the readers have gone
    }
    return p;
  }

  private <T> Optional<T> await(Pending<T> p, long deadline) throws ReadFailedException {
    try {
      return p.answer().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      ReadFailedException late = late(e);
      if (p.answer().completeExceptionally(late)) {
        throw late;
      }
      return await(p, deadline); // answered meanwhile
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ReadFailedException failed) {
        throw new ReadFailedException(failed.getMessage(), failed.getCause());
      }
      throw new ReadFailedException("reading failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.answer().cancel(false);
      throw new ReadFailedException("interrupted while waiting for the database", e);
    }
  }

  private ReadFailedException late(Throwable cause) {
    return new ReadFailedException(
        "no answer within " + Duration.ofNanos(waitBoundNanos).toMillis() + " ms", cause);
  }

  private void readLoop() {
    List<Pending<?>> group = new ArrayList<>();
    while (!closed) {
      try {
        group.add(queue.take());
      } catch (InterruptedException e) {
        return; // only close() interrupts
      }
      queue.drainTo(group, groupMax - 1);
      long now = System.nanoTime();
      // Given up waiting (nobody needs the answer), or queued past the bound: not asked.
      group.removeIf(p -> p.answer().isDone() || expired(p, now));
      lastGroup = group.size();
      if (!group.isEmpty()) {
        asking.incrementAndGet();
        try {
          answer(group);
        } finally {
          asking.decrementAndGet();
        }
      }
      group.clear();
    }
  }

  /** One query for the whole group, then every GET of it answered, or failed alike. */
  private void answer(List<Pending<?>> group) {
    Set<String> countIds = new LinkedHashSet<>();
    Set<String> albumIds = new LinkedHashSet<>();
    for (Pending<?> p : group) {
      p.kind().ask(p.albumId(), countIds, albumIds);
    }
    Found found;
    try {
      queries.increment();
      found = source.read(countIds, albumIds);
    } catch (SQLException | RuntimeException e) {
      ReadFailedException failed = new ReadFailedException("a group read failed", e);
      group.forEach(p -> fail(p, failed));
      return;
    }
    answered.add(group.size()); // before the answers: a GET answered is already counted
    for (Pending<?> p : group) {
      p.answerFrom(found);
    }
  }

  /** Fails {@code p} when it was queued longer than the bound; true if it was. */
  private boolean expired(Pending<?> p, long now) {
    if (now - p.queuedAt() <= waitBoundNanos) {
      return false;
    }
    fail(p, late(null));
    return true;
  }

  private static void fail(Pending<?> p, ReadFailedException e) {
    p.answer().completeExceptionally(e);
  }

  /** Queries asked so far: one per group. */
  public long queries() {
    return queries.sum();
  }

  /** GETs answered so far by those queries. */
  public long answered() {
    return answered.sum();
  }

  /** GETs waiting to be taken into a group now (a gauge). */
  public int queued() {
    return queue.size();
  }

  /**
   * Stops the readers (a query in flight ends within its timeout, its GETs answered) and fails
   * every GET still queued, and any queued after, with {@link ReadFailedException}.
   */
  @Override
  public void close() {
    closed = true;
    readers.forEach(Thread::interrupt);
    for (Thread t : readers) {
      try {
        t.join(waitBoundNanos / 1_000_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    List<Pending<?>> left = new ArrayList<>();
    queue.drainTo(left);
    ReadFailedException stopping = new ReadFailedException("the server is stopping", null);
    left.forEach(p -> fail(p, stopping));
  }
}
