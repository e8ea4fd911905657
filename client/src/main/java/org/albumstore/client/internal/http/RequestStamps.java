package org.albumstore.client.internal.http;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which attempts carry {@code X-Request-Start} ({@link
 * org.albumstore.common.metrics.RequestStart}): the first and then one in {@value #EVERY} of each
 * sender (a Netty lane, the shared pool, the classic transport).
 *
 * <p>Why not every attempt: the header is the server's cost, not the client's. The server parses it
 * and records the {@code arrival} stage per request; measured side by side with wrk against the
 * do-nothing endpoint (bench/request-start-cost.sh, quiet machine), it was 1.4 µs of the server's
 * CPU per request, 7% of a do-nothing request. The stage's percentiles come from a histogram, and
 * one attempt in {@value #EVERY}, taken at regular intervals whatever its type or outcome, gives
 * the same distribution at a sixteenth of the price (thousands of samples a second under load).
 */
final class RequestStamps {
  static final int EVERY = 16;

  private RequestStamps() {}

  /** Whether attempt {@code n} (0-based, of one sender) carries the header. */
  static boolean due(int n) {
    return Integer.remainderUnsigned(n, EVERY) == 0;
  }

  /** A counter of attempts for a sender used by several threads. */
  static final class Shared {
    private final AtomicInteger attempts = new AtomicInteger();

    boolean due() {
      return RequestStamps.due(attempts.getAndIncrement());
    }
  }
}
