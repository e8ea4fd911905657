package org.albumstore.server.internal.metrics;

import jakarta.servlet.ServletRequest;

/**
 * The times of one request that the filter cannot see by itself, kept as a request attribute: when
 * the client sent it, when it entered the filter, when its write was handed to the publisher, and
 * when its response was handed back to Tomcat.
 *
 * <p>The servlets call {@link #markValidated} and {@link #markHandedOver} and need not know whether
 * metrics are on: without the filter there is no clock and the calls do nothing.
 */
public final class RequestClock {
  static final String ATTRIBUTE = RequestClock.class.getName();

  final long startNanos;

  /** Client send → filter in, from the request's {@code X-Request-Start}; -1 when unknown. */
  final long arrivalNanos;

  /**
   * 0 until marked. Written on the request thread before the write is queued; read after the
   * response completed, on another thread: the publish queue, the future and Tomcat's dispatch
   * order the two.
   */
  long validatedNanos;

  /**
   * 0 until marked. Written by the thread that answers the write just before {@code complete()};
   * read in the completion listener, which Tomcat runs on a thread it dispatched after that call.
   */
  long handedOverNanos;

  RequestClock(long startNanos, long arrivalNanos) {
    this.startNanos = startNanos;
    this.arrivalNanos = arrivalNanos;
  }

  /** The clock of a request, or null when metrics are off. */
  public static RequestClock of(ServletRequest req) {
    return req.getAttribute(ATTRIBUTE) instanceof RequestClock c ? c : null;
  }

  /** Marks the end of the {@code validate} stage: the write is about to go to the publisher. */
  public static void markValidated(ServletRequest req) {
    RequestClock c = of(req);
    if (c != null) {
      c.validatedNanos = System.nanoTime();
    }
  }

  /**
   * Marks the start of the {@code complete} stage: the response is written into Tomcat's buffer and
   * {@code AsyncContext.complete()} is about to be called.
   */
  public void markHandedOver() {
    handedOverNanos = System.nanoTime();
  }
}
