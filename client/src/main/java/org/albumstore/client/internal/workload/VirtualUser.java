package org.albumstore.client.internal.workload;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.albumstore.client.internal.http.AsyncAlbumStoreApi;
import org.albumstore.client.internal.http.IdempotencyKeys;
import org.albumstore.client.internal.verify.AcknowledgedSegment;
import org.albumstore.common.event.Vote;

/**
 * {@link WriterLoop}'s work without a thread of its own: the same iterations, idempotency keys,
 * record of acknowledged writes and pacing, as a chain of futures that runs on the transport's
 * event loops. Each step starts when the previous one completed (the closed model per virtual
 * user); in the open model a step's send is scheduled for its slot instead of a thread sleeping
 * until then.
 *
 * <p>The steps of one virtual user run one after the other (each from the completion of the
 * previous), so its segment of the acknowledged writes is never touched by two threads at once.
 *
 * <p>{@link #readingBack()}: as {@link WriterLoop#readingBack()}.
 */
public final class VirtualUser {
  private static final Vote[] REVIEWS = {Vote.LIKE, Vote.LIKE, Vote.DISLIKE};
  private static final String[] STEPS = {"l1", "l2", "d"};

  private final AsyncAlbumStoreApi api;
  private final Workload workload;
  private final Pacer pacer;
  private final IdempotencyKeys keys;
  private final String user;
  private final int iterations;
  private final AcknowledgedSegment acknowledged;
  private final RecentAlbums recent;
  private final BooleanSupplier stopped;
  private final WriterJob job;
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  /**
   * @param api what this writer sends through
   * @param job what it does
   */
  public VirtualUser(AsyncAlbumStoreApi api, WriterJob job) {
    this.api = api;
    this.workload = job.workload();
    this.pacer = job.pacer();
    this.keys = job.keys();
    this.user = job.label();
    this.iterations = job.iterations();
    this.acknowledged = job.acknowledged();
    this.recent = job.recent();
    this.stopped = job.stopped();
    this.job = job;
  }

  /** The same user, reading back what it was told exists. Call before {@link #start()}. */
  public VirtualUser readingBack() {
    return new VirtualUser(api, job.readingBack());
  }

  /**
   * Starts the first iteration.
   *
   * @return completes when the last iteration is done; exceptionally only on a defect
   */
  public CompletableFuture<Void> start() {
    next(0);
    return done;
  }

  /**
   * A task that starts this user and waits for its end: what {@link WorkloadScheduler} runs in a
   * writer's place, so thread groups, their delays and the reader window work unchanged. The thread
   * only waits; every request runs on the event loops.
   */
  public Runnable awaitingTask() {
    return () -> {
      try {
        start().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException e) {
        throw new IllegalStateException("virtual user " + user + " failed", e.getCause());
      }
    };
  }

  private void next(int i) {
    if (i >= iterations || stopped.getAsBoolean()) {
      done.complete(null);
      return;
    }
    iteration(i)
        .whenComplete(
            (ignored, defect) -> {
              if (defect != null) {
                done.completeExceptionally(defect);
              } else {
                // Through the scheduler, not nested: a chain of already-completed futures (a fake
                // API, an answer faster than the callback) would otherwise deepen the stack by an
                // iteration each time.
                api.scheduler().execute(() -> next(i + 1));
              }
            });
  }

  private CompletableFuture<Void> iteration(int i) {
    if (workload == Workload.REVIEWS) {
      String albumId = keys.key(user, i, "r");
      recent.add(albumId);
      return review(i, albumId, acknowledged.add(albumId), 0);
    }
    return due()
        .thenCompose(due -> api.createAlbum(keys.key(user, i, "a"), due))
        .thenCompose(created -> afterCreate(i, created));
  }

  private CompletableFuture<Void> afterCreate(int i, Optional<String> created) {
    if (created.isEmpty()) {
      return CompletableFuture.completedFuture(null); // no ID: nothing to review or read
    }
    String albumId = created.get();
    int index = acknowledged.add(albumId);
    recent.add(albumId);
    if (workload == Workload.POST_GET) {
      // The outcome is in the statistics (a failed GET fails the run); nothing to verify.
      return due().thenCompose(due -> api.getAlbum(albumId, due)).thenApply(ok -> null);
    }
    if (job.readBack()) {
      return api.getAlbum(albumId, System.nanoTime())
          .thenCompose(ok -> review(i, albumId, index, 0));
    }
    return review(i, albumId, index, 0);
  }

  private CompletableFuture<Void> review(int i, String albumId, int index, int r) {
    if (r == REVIEWS.length) {
      return CompletableFuture.completedFuture(null);
    }
    return due()
        .thenCompose(due -> api.review(REVIEWS[r], albumId, keys.key(user, i, STEPS[r]), due))
        .thenCompose(
            ok -> {
              acknowledged.vote(index, REVIEWS[r], ok);
              if (job.readBack()) {
                return api.getReview(albumId, System.nanoTime())
                    .thenCompose(counts -> review(i, albumId, index, r + 1));
              }
              return review(i, albumId, index, r + 1);
            });
  }

  /** Completes at the next slot of the pacer (at once in the closed model), with its due time. */
  private CompletableFuture<Long> due() {
    long due = pacer.nextDue();
    long wait = due - System.nanoTime();
    if (wait <= 0) {
      return CompletableFuture.completedFuture(due);
    }
    CompletableFuture<Long> at = new CompletableFuture<>();
    api.scheduler().schedule(() -> at.complete(due), wait, TimeUnit.NANOSECONDS);
    return at;
  }
}
