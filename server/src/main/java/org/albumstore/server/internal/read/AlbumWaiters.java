package org.albumstore.server.internal.read;

import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.server.internal.read.ReadWaitObserver.Outcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Read-your-writes for {@code GET /albums/{albumID}}: the reads of albums that were acknowledged
 * but not yet applied wait here, without a thread each, until the album appears or their bound
 * passes.
 *
 * <p>How: one poller thread which, only while reads are waiting, runs ONE query per tick for all
 * the waiting IDs (through the group reads: {@link AlbumReads#albums} as the {@link AlbumLookup}),
 * answers every read whose album it found, and answers those past their deadline 503 with
 * Retry-After. A consumer's announcement of a commit answers the reads of its albums sooner,
 * without a query ({@link #announced}, from {@link CommitFeed}); the poller is then the fallback
 * for an announcement that was lost. So a thousand waiting reads cost one indexed query every few
 * milliseconds, not a thousand, and nothing at all when none wait (the thread sleeps on a monitor).
 * A read waits at most the bound plus one poll interval (plus one query, which has its own
 * timeout).
 *
 * <p>Why 503 and never 404 past the bound: only IDs that may belong to an album acknowledged
 * moments ago wait here ({@link WaitPolicy}), and nothing the server can ask says that such an
 * album is not on its way. Its message may sit in the queue behind a backlog, or be held
 * unacknowledged by a consumer that is cut off from the broker or from the database, for as long as
 * that fault lasts; a queue's message count (what a passive declare returns) does not include
 * those. A 404 would tell the client that an acknowledged album does not exist, which breaks
 * read-your-writes; a 503 says "not now, retry", which is true. The price: an ID of a waited-for
 * form that was never acknowledged (forged, or from a POST that failed, whose 200 nobody got) gets
 * its 503 after the bound instead of a 404.
 *
 * <p>Why polling and not PostgreSQL's LISTEN/NOTIFY: a NOTIFY is delivered at commit, and to keep
 * notifications in commit order PostgreSQL serialises every committing transaction that issued one
 * with a heavyweight lock on "database 0", cluster-wide, held until after the commit (async.c,
 * {@code PreCommit_Notify}). The consumer's connections commit batches in parallel; a NOTIFY in
 * each batch would make those commits take turns, and would tie the consumer's transaction to the
 * read path of the servers. Polling costs one query per tick while someone waits and leaves the
 * write path exactly as it is.
 *
 * <p>Why bounded: a forged ID of a form that is waited for ({@link WaitPolicy}) parks a read for
 * the whole bound. At most {@code maxWaiters} reads wait; beyond that {@link #park} refuses and the
 * servlet answers 503 with Retry-After at once.
 *
 * <p>Exactly one answer per read: the poller, the servlet's async timeout and a broken connection
 * race for one flag per waiter ({@link Waiter#claim}); the loser does nothing. A database failure
 * while polling answers the waiting reads 503, as a failed direct read does, and never hangs them;
 * stopping answers every waiting read 503 and ends the thread.
 */
public final class AlbumWaiters implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AlbumWaiters.class);
  private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** How a waiting read is answered; called once, on the poller thread. */
  public interface Answer {
    void found(AlbumProfile album);

    /**
     * The bound passed without the album appearing ({@link #PENDING_MESSAGE}), the database failed
     * while polling, or the server is stopping: 503 with Retry-After.
     */
    void unavailable(String msg);
  }

  /** One waiting read. */
  public static final class Waiter {
    private final String albumId;
    private final Answer answer;
    private final long parkedNanos;
    private final long deadlineNanos;
    private final AtomicBoolean claimed = new AtomicBoolean();

    private Waiter(String albumId, Answer answer, long parkedNanos, long deadlineNanos) {
      this.albumId = albumId;
      this.answer = answer;
      this.parkedNanos = parkedNanos;
      this.deadlineNanos = deadlineNanos;
    }

    /**
     * Takes the right to answer this read; true for exactly one caller. The servlet claims it when
     * its async timeout fires or the connection broke; the poller then just drops the waiter.
     */
    public boolean claim() {
      return claimed.compareAndSet(false, true);
    }
  }

  /** What a read is told whose album did not appear within the bound. */
  static final String PENDING_MESSAGE =
      "album not applied yet: if its POST /albums returned 200 it is on its way (the consumers"
          + " are behind or recovering from a fault); retry in a second";

  private final AlbumLookup lookup;
  private final Function<String, Optional<AlbumProfile>> known;
  private final LongSupplier nanoTime;
  private final WaitPolicy policy;
  private final ReadWaitObserver observer;
  private final long maxWaitNanos;
  private final long pollNanos;
  private final int maxWaiters;
  private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();
  private final AtomicInteger count = new AtomicInteger();
  private final Object wakeUp = new Object();
  private volatile boolean stopping;
  private Thread poller;
  private long nextFailureLog;
  private long failuresNotLogged;

  /**
   * @param lookup the poller's query for the waiting IDs
   * @param known what is already known of an album without a query (the announcements, kept in
   *     {@link ReadCache}): checked once more as a read parks, so that an announcement that came
   *     between its query and its parking still wakes it
   */
  public AlbumWaiters(
      AlbumLookup lookup,
      Function<String, Optional<AlbumProfile>> known,
      ReadWaitSettings settings,
      ReadWaitObserver observer) {
    this(lookup, known, settings, observer, System::nanoTime);
  }

  /** With the clock of the deadlines given: tests drive {@link #tick} with a clock of their own. */
  AlbumWaiters(
      AlbumLookup lookup,
      Function<String, Optional<AlbumProfile>> known,
      ReadWaitSettings settings,
      ReadWaitObserver observer,
      LongSupplier nanoTime) {
    this.lookup = lookup;
    this.known = known;
    this.nanoTime = nanoTime;
    this.nextFailureLog = nanoTime.getAsLong();
    this.policy = new WaitPolicy(settings);
    this.observer = observer;
    this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(settings.maxWaitMs());
    this.pollNanos = TimeUnit.MILLISECONDS.toNanos(settings.pollIntervalMs());
    this.maxWaiters = settings.maxWaiters();
  }

  /** Starts the poller thread; {@link #close} stops it. */
  public synchronized void start() {
    if (poller != null) {
      throw new IllegalStateException("already started");
    }
    poller = new Thread(this::run, "albumstore-read-waits");
    poller.setDaemon(true); // a safety net only: close() ends it
    poller.start();
  }

  /** True when a GET that did not find this album now should wait for it ({@link WaitPolicy}). */
  public boolean worthWaitingFor(String albumId) {
    return policy.worthWaitingFor(albumId, System.currentTimeMillis());
  }

  /**
   * Parks a read of {@code albumId} until the album appears (then {@link Answer#found}) or the
   * bound passes (then {@link Answer#unavailable} with {@link #PENDING_MESSAGE}).
   *
   * @return the waiter, or null when the most waiting reads already wait or the server is stopping
   *     (the caller answers 503 at once)
   */
  public Waiter park(String albumId, Answer answer) {
    if (stopping) {
      return null;
    }
    if (count.incrementAndGet() > maxWaiters) {
      count.decrementAndGet();
      observer.rejected();
      return null;
    }
    long now = nanoTime.getAsLong();
    Waiter w = new Waiter(albumId, answer, now, now + maxWaitNanos);
    waiters.add(w);
    if (stopping && waiters.remove(w)) {
      // close() may have drained the queue already: this read would wait for nobody.
      count.decrementAndGet();
      return null;
    }
    synchronized (wakeUp) {
      wakeUp.notifyAll();
    }
    // After adding: an announcement either sees this waiter or is seen here.
    known
        .apply(albumId)
        .ifPresent(p -> finish(w, Outcome.ANNOUNCED, nanoTime.getAsLong(), () -> answer.found(p)));
    return w;
  }

  /**
   * Answers the waiting reads of albums a consumer announced it committed, at once and without a
   * query (on the caller's thread: the announcements' consumer). The poller forgets them at its
   * next tick.
   */
  public void announced(Map<String, AlbumProfile> albums) {
    if (albums.isEmpty() || waiters.isEmpty()) {
      return;
    }
    long now = nanoTime.getAsLong();
    for (Waiter w : waiters) {
      AlbumProfile p = albums.get(w.albumId);
      if (p != null && !w.claimed.get()) {
        finish(w, Outcome.ANNOUNCED, now, () -> w.answer.found(p));
      }
    }
  }

  /** True once {@link #close} began: {@link #park} refuses from then on. */
  public boolean stopping() {
    return stopping;
  }

  /** Reads waiting now (a gauge). */
  public int waiting() {
    return count.get();
  }

  private void run() {
    try {
      while (!stopping) {
        if (!awaitWaiters()) {
          break;
        }
        tick();
        LockSupport.parkNanos(this, pollNanos);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      log.error("The read-wait poller failed; waiting reads are answered 503", e);
      throw e;
    } finally {
      stopping = true;
      answerAll("the server is stopping; retry in a second");
    }
  }

  /** Sleeps while nobody waits; false when stopping. */
  private boolean awaitWaiters() throws InterruptedException {
    synchronized (wakeUp) {
      while (!stopping && waiters.isEmpty()) {
        wakeUp.wait();
      }
    }
    return !stopping;
  }

  /**
   * One query for every waiting ID, then every waiter that can be answered is. On the poller thread
   * only (tests call it directly, without {@link #start}).
   */
  void tick() {
    Set<String> ids = new HashSet<>();
    for (Waiter w : waiters) {
      if (!w.claimed.get()) {
        ids.add(w.albumId);
      }
    }
    Map<String, AlbumProfile> found = Map.of();
    boolean failed = false;
    if (!ids.isEmpty()) {
      try {
        found = lookup.albums(ids);
      } catch (ReadFailedException e) {
        failed = true;
        logFailure(e);
      }
    }
    long now = nanoTime.getAsLong();
    for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
      Waiter w = it.next();
      AlbumProfile album = found.get(w.albumId);
      if (w.claimed.get()) {
        // Answered by the servlet (async timeout, broken connection): just forget it.
      } else if (album != null) {
        finish(w, Outcome.FOUND, now, () -> w.answer.found(album));
      } else if (failed && ids.contains(w.albumId)) {
        finish(
            w,
            Outcome.FAILED,
            now,
            () -> w.answer.unavailable("the database is unavailable; retry in a second"));
      } else if (now - w.deadlineNanos >= 0) {
        finish(w, Outcome.PENDING, now, () -> w.answer.unavailable(PENDING_MESSAGE));
      } else {
        continue;
      }
      it.remove();
      count.decrementAndGet();
    }
  }

  private void finish(Waiter w, Outcome outcome, long now, Runnable answer) {
    if (!w.claim()) {
      return;
    }
    observer.waited(outcome, now - w.parkedNanos);
    try {
      answer.run();
    } catch (RuntimeException e) {
      // One broken response must not stop the poller, which answers everybody else.
      log.warn("Answering a waiting read failed", e);
    }
  }

  private void answerAll(String msg) {
    long now = nanoTime.getAsLong();
    Waiter w;
    while ((w = waiters.poll()) != null) {
      count.decrementAndGet();
      Waiter waiter = w;
      finish(waiter, Outcome.FAILED, now, () -> waiter.answer.unavailable(msg));
    }
  }

  /** Once per interval at most, with the count of failures since: the poller may tick 200/s. */
  private void logFailure(ReadFailedException e) {
    long now = nanoTime.getAsLong();
    if (now - nextFailureLog >= 0) {
      log.warn(
          "Polling for waited-for albums failed; answering those reads 503 ({} more failed polls"
              + " since the last report)",
          failuresNotLogged,
          e.getCause());
      failuresNotLogged = 0;
      nextFailureLog = now + LOG_INTERVAL_NANOS;
    } else {
      failuresNotLogged++;
    }
  }

  /**
   * Stops the poller and answers every waiting read 503; waits for a running query at most its
   * timeout. Before the read pool closes.
   */
  @Override
  public void close() {
    stopping = true;
    synchronized (wakeUp) {
      wakeUp.notifyAll();
    }
    Thread t;
    synchronized (this) {
      t = poller;
    }
    if (t == null) {
      answerAll("the server is stopping; retry in a second");
      return;
    }
    LockSupport.unpark(t);
    try {
      t.join(Duration.ofSeconds(AlbumReads.QUERY_TIMEOUT_SECONDS + 1L).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (t.isAlive()) {
      log.warn("The read-wait poller did not stop within the query timeout");
    }
  }
}
