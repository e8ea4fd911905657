package org.albumstore.client.internal.http;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import org.albumstore.common.event.Vote;

/**
 * The writer's calls of {@link AlbumStoreApi}, without blocking: each future completes when the
 * logical request (retries inside) is done, with what the blocking call would return. The workload
 * tests drive fakes of it; {@link AsyncAlbumStoreClient} is the real one.
 */
public interface AsyncAlbumStoreApi {
  CompletableFuture<Optional<String>> createAlbum(String idempotencyKey, long dueNanos);

  CompletableFuture<Boolean> review(
      Vote vote, String albumId, String idempotencyKey, long dueNanos);

  CompletableFuture<Boolean> getAlbum(String albumId, long dueNanos);

  /** A writer reading back the counts of an album it reviewed ({@code --read-back}). */
  CompletableFuture<ReviewCounts> getReview(String albumId, long dueNanos);

  /** Where paced sends are scheduled (see {@link AsyncTransport#scheduler()}). */
  ScheduledExecutorService scheduler();
}
