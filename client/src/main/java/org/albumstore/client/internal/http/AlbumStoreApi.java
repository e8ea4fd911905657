package org.albumstore.client.internal.http;

import java.util.Optional;
import org.albumstore.common.event.Vote;

/**
 * The four calls the workload and the verifier make, each one a logical request (retries inside).
 * The workload tests drive fakes of it; {@link AlbumStoreClient} is the real one.
 *
 * <p>{@code dueNanos} is when the call was due ({@link System#nanoTime()}): now in the closed
 * model, the scheduled slot in the open model, so that latency includes any wait for a free thread.
 */
public interface AlbumStoreApi {
  /**
   * @return the new album's ID, or empty when the request failed after its retries
   */
  Optional<String> createAlbum(String idempotencyKey, long dueNanos) throws InterruptedException;

  /**
   * @return true when the server acknowledged (200) the review
   */
  boolean review(Vote vote, String albumId, String idempotencyKey, long dueNanos)
      throws InterruptedException;

  ReviewCounts getReview(String albumId, long dueNanos) throws InterruptedException;

  /**
   * {@code GET /albums/{albumID}} of an album this run created.
   *
   * @return true when the server answered 200 with the profile the album was created with
   */
  boolean getAlbum(String albumId, long dueNanos) throws InterruptedException;
}
