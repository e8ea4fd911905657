package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.albumstore.client.RequestType;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;
import org.albumstore.client.internal.stats.Completion;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.client.internal.stats.RunStatistics;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;

class RetryingCallerTest {
  /** Answers from a script; records the Idempotency-Key of every attempt. */
  private static final class ScriptedTransport implements Transport {
    final Deque<Object> script = new ArrayDeque<>();
    final List<String> keys = new ArrayList<>();

    ScriptedTransport then(Object... answers) {
      script.addAll(List.of(answers));
      return this;
    }

    @Override
    public ApiResponse send(ApiRequest request) throws IOException {
      keys.add(request.idempotencyKey());
      Object next = script.isEmpty() ? status(503) : script.poll();
      if (next instanceof IOException e) {
        throw e;
      }
      return (ApiResponse) next;
    }
  }

  private static ApiResponse status(int code) {
    return new ApiResponse(code, new byte[0], null);
  }

  private static ApiResponse json(String body) {
    return new ApiResponse(200, body.getBytes(StandardCharsets.UTF_8), null);
  }

  private final List<Duration> waits = new ArrayList<>();
  private final Sleeper recordingSleeper = waits::add;

  @Test
  void everyRetryOfAWriteCarriesTheSameIdempotencyKey() throws Exception {
    ScriptedTransport t =
        new ScriptedTransport()
            .then(status(503), new SocketTimeoutException(), status(500), status(200));
    RetryingCaller caller =
        new RetryingCaller(t, RetryPolicy.of(5), recordingSleeper, RequestObserver.NONE);

    CallResult r =
        caller.call(ApiRequest.review(Vote.LIKE, "42", "run-t1-0-l1"), System.nanoTime());

    assertThat(r.isSuccess()).isTrue();
    assertThat(r.attempts()).isEqualTo(4);
    assertThat(t.keys).hasSize(4).containsOnly("run-t1-0-l1");
    assertThat(waits).hasSize(3);
  }

  @Test
  void aRequestThatKeepsFailingCountsAsFailedAfterItsRetries() throws Exception {
    ScriptedTransport t = new ScriptedTransport(); // 503 forever
    List<String> retried = new ArrayList<>();
    RequestObserver observer =
        new RequestObserver() {
          @Override
          public void onCompleted(Completion c) {}

          @Override
          public void onRetry(RequestType type, String code) {
            retried.add(type.label() + " " + code);
          }
        };
    RetryingCaller caller = new RetryingCaller(t, RetryPolicy.of(5), recordingSleeper, observer);

    CallResult r = caller.call(ApiRequest.review(Vote.DISLIKE, "42", "k-1"), System.nanoTime());

    assertThat(r.isSuccess()).isFalse();
    assertThat(r.attempts()).isEqualTo(6);
    assertThat(r.code()).isEqualTo("503");
    assertThat(t.keys).hasSize(6).containsOnly("k-1");
    assertThat(retried).hasSize(5).containsOnly("POST /review/dislike 503");
  }

  @Test
  void anIoErrorOnTheLastAttemptIsReportedByItsName() throws Exception {
    ScriptedTransport t =
        new ScriptedTransport().then(new SocketTimeoutException(), new SocketTimeoutException());
    RetryingCaller caller =
        new RetryingCaller(t, RetryPolicy.of(1), recordingSleeper, RequestObserver.NONE);
    CallResult r = caller.call(ApiRequest.getReview("42"), System.nanoTime());
    assertThat(r.response()).isNull();
    assertThat(r.code()).isEqualTo("SocketTimeoutException");
    assertThat(t.keys).containsOnlyNulls(); // reads carry no key
  }

  @Test
  void zeroRetriesMeansOneAttempt() throws Exception {
    ScriptedTransport t = new ScriptedTransport();
    new RetryingCaller(t, RetryPolicy.of(0), recordingSleeper, RequestObserver.NONE)
        .call(ApiRequest.getReview("42"), System.nanoTime());
    assertThat(t.keys).hasSize(1);
    assertThat(waits).isEmpty();
  }

  @Test
  void retryAfterIsHonouredButCapped() throws Exception {
    ScriptedTransport t =
        new ScriptedTransport()
            .then(
                new ApiResponse(503, new byte[0], Duration.ofSeconds(1)),
                new ApiResponse(503, new byte[0], Duration.ofSeconds(60)),
                status(200));
    new RetryingCaller(t, RetryPolicy.of(5), recordingSleeper, RequestObserver.NONE)
        .call(ApiRequest.review(Vote.LIKE, "1", "k"), System.nanoTime());
    assertThat(waits).containsExactly(Duration.ofSeconds(1), RetryPolicy.RETRY_AFTER_CAP);
  }

  @Test
  void latencyCountsFromTheDueTimeAndCoversTheRetries() throws Exception {
    ScriptedTransport t = new ScriptedTransport().then(status(503), status(200));
    long due = System.nanoTime() - 50_000_000; // the request was due 50 ms ago
    CallResult r =
        new RetryingCaller(t, RetryPolicy.of(5), recordingSleeper, RequestObserver.NONE)
            .call(ApiRequest.getReview("1"), due);
    assertThat(r.startNanos()).isEqualTo(due);
    assertThat(r.endNanos() - r.startNanos()).isGreaterThanOrEqualTo(50_000_000);
  }

  @Test
  void theClientReportsEachLogicalRequestOnceWithItsFinalOutcome() throws Exception {
    ScriptedTransport t =
        new ScriptedTransport()
            .then(
                status(503),
                json("{\"albumID\":\"abc-1\",\"imageSize\":\"3471\"}"),
                json("{\"albumID\":\"not valid!\"}"),
                status(404),
                json("{\"likes\":\"2\",\"dislikes\":1}"));
    RunStatistics stats = new RunStatistics();
    AlbumStoreClient client =
        new AlbumStoreClient(
            new RetryingCaller(t, RetryPolicy.of(0), recordingSleeper, stats),
            stats,
            AlbumImage.builtIn());

    assertThat(client.createAlbum("k1", System.nanoTime())).isEmpty(); // 503, no retry
    assertThat(client.createAlbum("k2", System.nanoTime())).contains("abc-1");
    assertThat(client.createAlbum("k3", System.nanoTime())).isEmpty(); // unusable ID
    assertThat(client.getReview("x", System.nanoTime())).isEqualTo(ReviewCounts.notFound());
    assertThat(client.getReview("abc-1", System.nanoTime())).isEqualTo(ReviewCounts.found(2, 1));

    stats.tick();
    assertThat(stats.stats(RequestType.POST_ALBUMS, 1).count()).isEqualTo(3);
    assertThat(stats.stats(RequestType.POST_ALBUMS, 1).ok()).isEqualTo(1);
    assertThat(stats.failures())
        .containsEntry("POST /albums: 503", 1L)
        .containsEntry("POST /albums: bad-body", 1L)
        .containsEntry("GET /review: 404", 1L);
  }

  @Test
  void theProfileIsSentAsJson() {
    assertThat(AlbumStoreClient.profileJson(AlbumStoreClient.PROFILE))
        .isEqualTo(
            "{\"artist\":\"Sex Pistols\",\"title\":\"Never Mind The Bollocks!\",\"year\":\"1977\"}");
    assertThat(Optional.of(AlbumStoreClient.PROFILE.problem() == null)).contains(true);
  }
}
