package org.albumstore.client.internal.http;

import java.io.IOException;
import java.time.Duration;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;
import org.albumstore.client.history.AttemptLog;
import org.albumstore.client.internal.stats.RequestObserver;

/**
 * Sends a request until it succeeds or the retries run out.
 *
 * <p>Every non-2xx status and every I/O error is retried, as the workload definition demands (a 4xx
 * will usually fail again; that shows in the report as retries, not as a silent skip). A write
 * carries its idempotency key inside the {@link ApiRequest}, and the very same request object is
 * sent on each attempt, so a retry after a timeout cannot apply a write twice on a server that
 * honours the key.
 */
final class RetryingCaller {
  private final Transport transport;
  private final RetryPolicy policy;
  private final Sleeper sleeper;
  private final RequestObserver observer;
  private final AttemptLog attempts;

  RetryingCaller(
      Transport transport, RetryPolicy policy, Sleeper sleeper, RequestObserver observer) {
    this(transport, policy, sleeper, observer, AttemptLog.NONE);
  }

  private RetryingCaller(
      Transport transport,
      RetryPolicy policy,
      Sleeper sleeper,
      RequestObserver observer,
      AttemptLog attempts) {
    this.transport = transport;
    this.policy = policy;
    this.sleeper = sleeper;
    this.observer = observer;
    this.attempts = attempts;
  }

  /** The same caller, each of whose attempts is also told to {@code log}. */
  public RetryingCaller withAttemptLog(AttemptLog log) {
    return new RetryingCaller(transport, policy, sleeper, observer, log);
  }

  /**
   * @param dueNanos when the request was due ({@link System#nanoTime()}); latency counts from here
   */
  public CallResult call(ApiRequest request, long dueNanos) throws InterruptedException {
    int attempt = 0;
    observer.onStarted(request.type());
    while (true) {
      attempt++;
      ApiResponse response = null;
      String failure = null;
      long sent = System.nanoTime();
      try {
        response = transport.send(request);
      } catch (IOException e) {
        failure = e.getClass().getSimpleName();
      }
      long end = System.nanoTime();
      attempts.attempt(request, sent, end, response, failure);
      boolean ok = response != null && response.isSuccess();
      if (ok || attempt > policy.retries()) {
        return new CallResult(request, response, failure, attempt, dueNanos, end);
      }
      observer.onRetry(
          request.type(), response != null ? Integer.toString(response.status()) : failure);
      Duration wait = policy.delayAfter(attempt, response);
      sleeper.sleep(wait);
    }
  }
}
