package org.albumstore.client.internal.http;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.AttemptLog;
import org.albumstore.client.internal.stats.RequestObserver;

/**
 * {@link RetryingCaller} without a waiting thread: the same rules (every non-2xx and every I/O
 * error retried up to the policy's retries, the very same request object, so the same idempotency
 * key, on each attempt, the policy's backoff and {@code Retry-After}), with the backoff scheduled
 * on the transport's scheduler instead of slept.
 */
final class AsyncRetryingCaller {
  private final AsyncTransport transport;
  private final RetryPolicy policy;
  private final RequestObserver observer;
  private final AttemptLog attempts;

  AsyncRetryingCaller(AsyncTransport transport, RetryPolicy policy, RequestObserver observer) {
    this(transport, policy, observer, AttemptLog.NONE);
  }

  /**
   * @param attempts told about every attempt, retries included
   */
  AsyncRetryingCaller(
      AsyncTransport transport, RetryPolicy policy, RequestObserver observer, AttemptLog attempts) {
    this.transport = transport;
    this.policy = policy;
    this.observer = observer;
    this.attempts = attempts;
  }

  /**
   * @param dueNanos when the request was due ({@link System#nanoTime()}); latency counts from here
   * @return completes with the outcome of the last attempt; exceptionally only on a defect (an
   *     exception other than an I/O error)
   */
  public CompletableFuture<CallResult> call(ApiRequest request, long dueNanos) {
    CompletableFuture<CallResult> result = new CompletableFuture<>();
    observer.onStarted(request.type());
    attempt(request, dueNanos, 1, result);
    return result;
  }

  private void attempt(
      ApiRequest request, long dueNanos, int attempt, CompletableFuture<CallResult> result) {
    long sent = System.nanoTime();
    transport
        .sendAsync(request)
        .whenComplete(
            (response, error) -> {
              String failure = null;
              if (error != null) {
                Throwable cause = error instanceof CompletionException ? error.getCause() : error;
                if (!(cause instanceof IOException)) {
                  result.completeExceptionally(cause);
                  return;
                }
                failure = cause.getClass().getSimpleName();
              }
              long end = System.nanoTime();
              attempts.attempt(request, sent, end, response, failure);
              boolean ok = response != null && response.isSuccess();
              if (ok || attempt > policy.retries()) {
                result.complete(new CallResult(request, response, failure, attempt, dueNanos, end));
                return;
              }
              observer.onRetry(
                  request.type(), response != null ? Integer.toString(response.status()) : failure);
              Duration wait = policy.delayAfter(attempt, response);
              transport
                  .scheduler()
                  .schedule(
                      () -> attempt(request, dueNanos, attempt + 1, result),
                      wait.toNanos(),
                      TimeUnit.NANOSECONDS);
            });
  }
}
