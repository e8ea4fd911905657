package org.albumstore.client.internal.workload;

import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.albumstore.client.internal.http.AlbumStoreApi;
import org.albumstore.client.internal.http.IdempotencyKeys;
import org.albumstore.client.internal.verify.AcknowledgedSegment;
import org.albumstore.common.event.Vote;

/**
 * One writer thread's work, per iteration ({@link Workload}): {@code POST /albums}, then two likes
 * and one dislike of the album it returned; or, in {@code post-get}, {@code POST /albums} then
 * {@code GET /albums/{id}} of that album. An album that could not be created gets no further
 * request (there is no ID). Every created album and every review goes into the thread's segment of
 * the acknowledged writes, for the verification (in {@code post-get} the albums, with no reviews).
 *
 * <p>A writer {@link #readingBack() reading back} also reads what it was told exists, for the
 * operation history's checker: the album after its 200 ({@code GET /albums/{id}}), and its counts
 * after each review ({@code GET /review/{id}}). These reads are sent at once, outside the pacer's
 * slots: they observe the load, they are not part of it.
 */
public final class WriterLoop implements Runnable {
  private static final Vote[] REVIEWS = {Vote.LIKE, Vote.LIKE, Vote.DISLIKE};
  private static final String[] STEPS = {"l1", "l2", "d"};

  private final AlbumStoreApi api;
  private final Workload workload;
  private final Pacer pacer;
  private final IdempotencyKeys keys;
  private final String thread;
  private final int iterations;
  private final AcknowledgedSegment acknowledged;
  private final RecentAlbums recent;
  private final BooleanSupplier stopped;
  private final WriterJob job;

  /**
   * @param api what this writer sends through
   * @param job what it does
   */
  public WriterLoop(AlbumStoreApi api, WriterJob job) {
    this.api = api;
    this.workload = job.workload();
    this.pacer = job.pacer();
    this.keys = job.keys();
    this.thread = job.label();
    this.iterations = job.iterations();
    this.acknowledged = job.acknowledged();
    this.recent = job.recent();
    this.stopped = job.stopped();
    this.job = job;
  }

  /** The same writer, reading back what it was told exists. */
  public WriterLoop readingBack() {
    return new WriterLoop(api, job.readingBack());
  }

  @Override
  public void run() {
    try {
      for (int i = 0; i < iterations && !stopped.getAsBoolean(); i++) {
        iteration(i);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void iteration(int i) throws InterruptedException {
    if (workload == Workload.REVIEWS) {
      String albumId = keys.key(thread, i, "r");
      recent.add(albumId);
      reviews(i, albumId, acknowledged.add(albumId));
      return;
    }
    Optional<String> created = api.createAlbum(keys.key(thread, i, "a"), pacer.awaitNext());
    if (created.isEmpty()) {
      return;
    }
    String albumId = created.get();
    int index = acknowledged.add(albumId);
    recent.add(albumId);
    if (workload == Workload.POST_GET) {
      // The outcome is in the statistics (a failed GET fails the run); nothing to verify.
      api.getAlbum(albumId, pacer.awaitNext());
      return;
    }
    if (job.readBack()) {
      api.getAlbum(albumId, System.nanoTime());
    }
    reviews(i, albumId, index);
  }

  private void reviews(int i, String albumId, int index) throws InterruptedException {
    for (int r = 0; r < REVIEWS.length; r++) {
      boolean ok =
          api.review(REVIEWS[r], albumId, keys.key(thread, i, STEPS[r]), pacer.awaitNext());
      acknowledged.vote(index, REVIEWS[r], ok);
      if (job.readBack()) {
        api.getReview(albumId, System.nanoTime());
      }
    }
  }
}
