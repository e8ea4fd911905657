package org.albumstore.client.internal.http;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.AttemptLog;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.common.event.Vote;

/**
 * {@link AlbumStoreClient}'s writes over an {@link AsyncRetryingCaller}: the same requests, the
 * same reading of the answers and the same one report per logical request, on the event loop.
 */
public final class AsyncAlbumStoreClient implements AsyncAlbumStoreApi {
  private final AsyncTransport transport;
  private final RetryPolicy policy;
  private final AsyncRetryingCaller caller;
  private final RequestObserver observer;
  private final ApiRequest.AlbumUpload upload;
  private final ScheduledExecutorService scheduler;

  private AsyncAlbumStoreClient(
      AsyncTransport transport,
      RetryPolicy policy,
      RequestObserver observer,
      ApiRequest.AlbumUpload upload,
      AttemptLog attempts) {
    this.transport = transport;
    this.policy = policy;
    this.caller = new AsyncRetryingCaller(transport, policy, observer, attempts);
    this.observer = observer;
    this.upload = upload;
    this.scheduler = transport.scheduler();
  }

  /**
   * A client over {@code transport} whose requests, and retries, are reported to {@code observer}.
   */
  public static AsyncAlbumStoreClient create(
      AsyncTransport transport, RetryPolicy policy, RequestObserver observer, AlbumImage image) {
    return new AsyncAlbumStoreClient(
        transport, policy, observer, AlbumStoreClient.uploadOf(image), AttemptLog.NONE);
  }

  /**
   * The same client for one virtual user, on its own {@link AsyncTransport#lane()}: the same
   * retries, observer and upload (one upload object, so the transport still encodes it once).
   */
  public AsyncAlbumStoreClient forOneUser() {
    return forOneUser(AttemptLog.NONE);
  }

  /** {@link #forOneUser()}, whose attempts are also told to {@code log}. */
  public AsyncAlbumStoreClient forOneUser(AttemptLog log) {
    return new AsyncAlbumStoreClient(transport.lane(), policy, observer, upload, log);
  }

  @Override
  public CompletableFuture<Optional<String>> createAlbum(String idempotencyKey, long dueNanos) {
    return caller
        .call(ApiRequest.createAlbum(idempotencyKey, upload), dueNanos)
        .thenApply(r -> AlbumStoreClient.created(observer, r));
  }

  @Override
  public CompletableFuture<Boolean> review(
      Vote vote, String albumId, String idempotencyKey, long dueNanos) {
    return caller
        .call(ApiRequest.review(vote, albumId, idempotencyKey), dueNanos)
        .thenApply(r -> AlbumStoreClient.reviewed(observer, r));
  }

  @Override
  public CompletableFuture<Boolean> getAlbum(String albumId, long dueNanos) {
    return caller
        .call(ApiRequest.getAlbum(albumId), dueNanos)
        .thenApply(r -> AlbumStoreClient.gotAlbum(observer, r));
  }

  @Override
  public CompletableFuture<ReviewCounts> getReview(String albumId, long dueNanos) {
    return caller
        .call(ApiRequest.getReview(albumId), dueNanos)
        .thenApply(r -> AlbumStoreClient.counted(observer, r));
  }

  @Override
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }
}
