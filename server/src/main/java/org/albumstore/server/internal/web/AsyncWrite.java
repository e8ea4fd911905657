package org.albumstore.server.internal.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.albumstore.server.internal.metrics.RequestClock;
import org.albumstore.server.internal.publish.WriteRejectedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a write when its publish future completes, without holding a Tomcat thread meanwhile.
 *
 * <p>Why async: a confirm takes milliseconds, and under group commit a request waits for the
 * confirm of the whole bundle it rides in. Parking a request thread for that would cap throughput
 * at (threads / confirm latency); with {@code startAsync} the thread returns to the pool at once,
 * and the publisher thread that received the confirm completes the response (a small buffered
 * write; Tomcat flushes it on its own threads after {@code complete()}).
 *
 * <p>Exactly one answer per request: the future's callback and the async timeout (a safety net well
 * above the publisher's own deadline) race for one flag. A 200 is written only from the future's
 * normal completion, i.e. after the broker's confirm.
 */
final class AsyncWrite {
  private static final Logger log = LoggerFactory.getLogger(AsyncWrite.class);
  private static final ThrottledLog failures = new ThrottledLog(log, 10_000);

  /** What to write once the write is confirmed. */
  @FunctionalInterface
  interface Success {
    void write(HttpServletResponse resp) throws IOException;
  }

  private AsyncWrite() {}

  static void answerWhenDone(
      HttpServletRequest req,
      HttpServletResponse resp,
      CompletableFuture<Void> done,
      long timeoutMs,
      Success success)
      throws IOException {
    RequestClock clock = RequestClock.of(req);
    if (done.isDone()) {
      // Refused at once (queue full, shutting down), or confirmed already: answer on this thread,
      // no async round trip.
      answer(resp, done, success);
      if (clock != null) {
        clock.markHandedOver();
      }
      return;
    }
    AsyncContext ac = req.startAsync();
    ac.setTimeout(timeoutMs);
    AtomicBoolean answered = new AtomicBoolean();
    ac.addListener(new TimeoutAnswer(resp, ac, answered));
    done.whenComplete(
        (ok, error) -> {
          if (!answered.compareAndSet(false, true)) {
            return;
          }
          try {
            answer(resp, done, success);
          } catch (IOException | RuntimeException e) {
            failures.warn("Writing a write's response failed", e);
          } finally {
            if (clock != null) {
              clock.markHandedOver();
            }
            ac.complete();
          }
        });
  }

  /**
   * Answers 503 when the async timeout fires before the future completed, unless the future's
   * callback answered first; marks the request answered when its connection fails.
   */
  private static final class TimeoutAnswer implements AsyncListener {
    private final HttpServletResponse resp;
    private final AsyncContext ac;
    private final AtomicBoolean answered;

    TimeoutAnswer(HttpServletResponse resp, AsyncContext ac, AtomicBoolean answered) {
      this.resp = resp;
      this.ac = ac;
      this.answered = answered;
    }

    @Override
    public void onTimeout(AsyncEvent event) throws IOException {
      if (answered.compareAndSet(false, true)) {
        Responses.unavailable(
            resp,
            "the message broker did not confirm in time; retry with the same Idempotency-Key");
        ac.complete();
      }
    }

    @Override
    public void onError(AsyncEvent event) {
      answered.set(true); // the connection is gone: nobody to answer
    }

    @Override
    public void onComplete(AsyncEvent event) {}

    @Override
    public void onStartAsync(AsyncEvent event) {}
  }

  private static void answer(
      HttpServletResponse resp, CompletableFuture<Void> done, Success success) throws IOException {
    Throwable error = null;
    try {
      done.join();
    } catch (CompletionException e) {
      error = e.getCause();
    } catch (RuntimeException e) {
      error = e;
    }
    if (error == null) {
      success.write(resp);
    } else if (error instanceof WriteRejectedException rejected) {
      Responses.unavailable(resp, rejected.getMessage());
    } else {
      failures.warn("A write failed unexpectedly", error);
      Responses.error(resp, 500, "internal error; retry with the same Idempotency-Key");
    }
  }
}
