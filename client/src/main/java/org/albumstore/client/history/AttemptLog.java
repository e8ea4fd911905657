package org.albumstore.client.history;

/**
 * Told about every attempt of every request, retries included, with the moment it was sent: what
 * the operation history ({@code client/history}) records. The statistics see logical requests
 * ({@link org.albumstore.client.internal.stats.RequestObserver}); a history must see attempts,
 * because a retried {@code GET} hides a first answer that broke a promise (a 404 for an
 * acknowledged album), and because a write is known not applied only when every one of its attempts
 * was refused.
 *
 * <p>Called on the hot path, from the thread that saw the answer (an event loop with the Netty
 * transport): implementations must be thread-safe and must not parse or write there.
 */
@FunctionalInterface
public interface AttemptLog {
  AttemptLog NONE = (request, sentNanos, endNanos, response, failure) -> {};

  /**
   * @param sentNanos when the attempt was sent ({@link System#nanoTime()})
   * @param endNanos when its answer or failure arrived
   * @param response the answer, or null when the attempt got none
   * @param failure the exception's simple class name when there was no answer, else null
   */
  void attempt(
      ApiRequest request, long sentNanos, long endNanos, ApiResponse response, String failure);
}
