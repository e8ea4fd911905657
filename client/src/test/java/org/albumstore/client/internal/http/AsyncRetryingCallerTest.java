package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;
import org.albumstore.client.internal.stats.Completion;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AsyncRetryingCallerTest {
  /** Runs every scheduled task at once, recording the delay it was scheduled with. */
  private static final class RecordingScheduler extends ScheduledThreadPoolExecutor {
    final List<Duration> delays = new CopyOnWriteArrayList<>();

    RecordingScheduler() {
      super(1);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
      delays.add(Duration.ofNanos(unit.toNanos(delay)));
      return super.schedule(task, 0, unit);
    }
  }

  /** Answers from a script, asynchronously; records the Idempotency-Key of every attempt. */
  private static final class ScriptedTransport implements AsyncTransport {
    final Deque<Object> script = new ArrayDeque<>();
    final List<String> keys = new CopyOnWriteArrayList<>();
    final RecordingScheduler scheduler;

    ScriptedTransport(RecordingScheduler scheduler, Object... answers) {
      this.scheduler = scheduler;
      script.addAll(List.of(answers));
    }

    @Override
    public synchronized CompletableFuture<ApiResponse> sendAsync(ApiRequest request) {
      keys.add(request.idempotencyKey());
      Object next = script.isEmpty() ? status(503) : script.poll();
      return next instanceof Throwable t
          ? CompletableFuture.failedFuture(t)
          : CompletableFuture.completedFuture((ApiResponse) next);
    }

    @Override
    public ApiResponse send(ApiRequest request) {
      throw new AssertionError("the async caller never blocks");
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return scheduler;
    }
  }

  private static ApiResponse status(int code) {
    return new ApiResponse(code, new byte[0], null);
  }

  private final RecordingScheduler scheduler = new RecordingScheduler();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void everyRetryOfAWriteCarriesTheSameIdempotencyKeyAndWaitsOnTheScheduler() throws Exception {
    ScriptedTransport t =
        new ScriptedTransport(
            scheduler, status(503), new SocketTimeoutException(), status(500), status(200));
    List<String> retried = new CopyOnWriteArrayList<>();
    RequestObserver observer =
        new RequestObserver() {
          @Override
          public void onCompleted(Completion c) {}

          @Override
          public void onRetry(RequestType type, String code) {
            retried.add(code);
          }
        };
    CallResult r =
        new AsyncRetryingCaller(t, RetryPolicy.of(5), observer)
            .call(ApiRequest.review(Vote.LIKE, "42", "run-t1-0-l1"), System.nanoTime())
            .get(10, TimeUnit.SECONDS);

    assertThat(r.isSuccess()).isTrue();
    assertThat(r.attempts()).isEqualTo(4);
    assertThat(t.keys).hasSize(4).containsOnly("run-t1-0-l1");
    assertThat(retried).containsExactly("503", "SocketTimeoutException", "500");
    assertThat(scheduler.delays).hasSize(3);
  }

  @Test
  void aRequestThatKeepsFailingCountsAsFailedAfterItsRetries() throws Exception {
    ScriptedTransport t = new ScriptedTransport(scheduler); // 503 forever
    CallResult r =
        new AsyncRetryingCaller(t, RetryPolicy.of(5), RequestObserver.NONE)
            .call(ApiRequest.review(Vote.DISLIKE, "42", "k-1"), System.nanoTime())
            .get(10, TimeUnit.SECONDS);
    assertThat(r.isSuccess()).isFalse();
    assertThat(r.attempts()).isEqualTo(6);
    assertThat(r.code()).isEqualTo("503");
    assertThat(t.keys).hasSize(6).containsOnly("k-1");
  }

  @Test
  void anIoErrorOnTheLastAttemptIsReportedByItsName() throws Exception {
    ScriptedTransport t =
        new ScriptedTransport(
            scheduler, new SocketTimeoutException(), new SocketTimeoutException());
    CallResult r =
        new AsyncRetryingCaller(t, RetryPolicy.of(1), RequestObserver.NONE)
            .call(ApiRequest.getReview("42"), System.nanoTime())
            .get(10, TimeUnit.SECONDS);
    assertThat(r.response()).isNull();
    assertThat(r.code()).isEqualTo("SocketTimeoutException");
  }

  @Test
  void retryAfterIsHonouredButCapped() throws Exception {
    ScriptedTransport t =
        new ScriptedTransport(
            scheduler,
            new ApiResponse(503, new byte[0], Duration.ofSeconds(1)),
            new ApiResponse(503, new byte[0], Duration.ofSeconds(60)),
            status(200));
    new AsyncRetryingCaller(t, RetryPolicy.of(5), RequestObserver.NONE)
        .call(ApiRequest.review(Vote.LIKE, "1", "k"), System.nanoTime())
        .get(10, TimeUnit.SECONDS);
    assertThat(scheduler.delays)
        .containsExactly(Duration.ofSeconds(1), RetryPolicy.RETRY_AFTER_CAP);
  }

  @Test
  void aDefectIsNotRetriedButFailsTheCall() {
    ScriptedTransport t = new ScriptedTransport(scheduler, new IllegalStateException("bug"));
    CompletableFuture<CallResult> r =
        new AsyncRetryingCaller(t, RetryPolicy.of(5), RequestObserver.NONE)
            .call(ApiRequest.getReview("42"), System.nanoTime());
    assertThatThrownBy(() -> r.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(IllegalStateException.class);
    assertThat(t.keys).hasSize(1);
  }

  @Test
  void anIoExceptionIsAFailureNotADefect() throws Exception {
    ScriptedTransport t = new ScriptedTransport(scheduler, new IOException("reset"));
    CallResult r =
        new AsyncRetryingCaller(t, RetryPolicy.of(0), RequestObserver.NONE)
            .call(ApiRequest.getReview("42"), System.nanoTime())
            .get(10, TimeUnit.SECONDS);
    assertThat(r.code()).isEqualTo("IOException");
  }
}
