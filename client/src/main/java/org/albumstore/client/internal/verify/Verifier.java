package org.albumstore.client.internal.verify;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.albumstore.client.internal.http.AlbumStoreApi;
import org.albumstore.client.internal.http.ReviewCounts;
import org.albumstore.client.internal.http.Sleeper;

/**
 * Reads back every created album's counters and compares them with what was acknowledged.
 *
 * <p>Reads run on a fixed number of threads. Albums that disagree are read again once a second
 * until they agree or {@code recheckFor} has passed: the writes are applied asynchronously, and the
 * queue depth that says "all applied" may be stale (the management API refreshes every few seconds)
 * or unknown. Only albums that disagreed are re-read, so a correct run costs one GET per album.
 */
public final class Verifier {
  public static final int SHOWN = 20;
  private static final int CHUNK = 256;
  private static final Duration RECHECK_PAUSE = Duration.ofSeconds(1);

  private final AlbumStoreApi reader;
  private final int threads;
  private final Sleeper sleeper;

  public Verifier(AlbumStoreApi reader, int threads, Sleeper sleeper) {
    this.reader = reader;
    this.threads = threads;
    this.sleeper = sleeper;
  }

  private record Pending(ExpectedCounts expected, String problem) {}

  public VerificationResult verify(AcknowledgedWrites acknowledged, Duration recheckFor)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + recheckFor.toNanos();
    AtomicInteger threadNo = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads, r -> new Thread(r, "verify-" + threadNo.incrementAndGet()));
    try {
      List<ExpectedCounts> all = new ArrayList<>();
      long albums = 0;
      List<Pending> pending = new ArrayList<>();
      // First pass, streamed segment by segment so that the expectations are never all in memory.
      for (AcknowledgedSegment segment : acknowledged.segments()) {
        albums += segment.size();
        for (int from = 0; from < segment.size(); from += CHUNK) {
          for (int i = from; i < Math.min(segment.size(), from + CHUNK); i++) {
            all.add(segment.expected(i));
          }
          if (all.size() >= CHUNK * threads) {
            pending.addAll(check(pool, all));
            all.clear();
          }
        }
      }
      pending.addAll(check(pool, all));
      int rounds = 1;
      while (!pending.isEmpty() && System.nanoTime() - deadline < 0) {
        sleeper.sleep(RECHECK_PAUSE);
        List<ExpectedCounts> again = new ArrayList<>(pending.size());
        pending.forEach(p -> again.add(p.expected()));
        pending = check(pool, again);
        rounds++;
      }
      pending.sort(Comparator.comparing(p -> p.expected().albumId()));
      List<Mismatch> shown = new ArrayList<>();
      for (Pending p : pending.subList(0, Math.min(SHOWN, pending.size()))) {
        shown.add(new Mismatch(p.expected().albumId(), p.problem()));
      }
      return new VerificationResult(
          albums, pending.size(), shown, rounds, (System.nanoTime() - start) / 1e9);
    } finally {
      pool.shutdownNow();
      if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("verification threads did not stop within 10 s");
      }
    }
  }

  /** Reads the given albums on the pool; returns those that disagree. */
  private List<Pending> check(ExecutorService pool, List<ExpectedCounts> albums)
      throws InterruptedException {
    ConcurrentLinkedQueue<Pending> disagreeing = new ConcurrentLinkedQueue<>();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int from = 0; from < albums.size(); from += CHUNK) {
      List<ExpectedCounts> chunk = albums.subList(from, Math.min(albums.size(), from + CHUNK));
      tasks.add(
          () -> {
            for (ExpectedCounts e : chunk) {
              ReviewCounts observed = reader.getReview(e.albumId(), System.nanoTime());
              String problem = CountCheck.problem(e, observed);
              if (problem != null) {
                disagreeing.add(new Pending(e, problem));
              }
            }
            return null;
          });
    }
    for (Future<Void> f : pool.invokeAll(tasks)) {
      try {
        f.get();
      } catch (ExecutionException e) {
        throw new IllegalStateException("verification read failed", e.getCause());
      }
    }
    return new ArrayList<>(disagreeing);
  }
}
