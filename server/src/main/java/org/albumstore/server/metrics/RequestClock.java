package org.albumstore.server.metrics;

import jakarta.servlet.ServletRequest;

/**
 * The times of one request that the filter cannot see by itself, kept as a request attribute: when
 * it entered the filter, and when its write was handed to the publisher.
 *
 * <p>The servlets call {@link #markValidated} and need not know whether metrics are on: without the
 * filter there is no clock and the call does nothing.
 */
public final class RequestClock {
  static final String ATTRIBUTE = RequestClock.class.getName();

  final long startNanos;

  /**
   * 0 until marked. Written on the request thread before the write is queued; read after the
   * response completed, on another thread: the publish queue, the future and Tomcat's dispatch
   * order the two.
   */
  long validatedNanos;

  RequestClock(long startNanos) {
    this.startNanos = startNanos;
  }

  /** Marks the end of the {@code validate} stage: the write is about to go to the publisher. */
  public static void markValidated(ServletRequest req) {
    if (req.getAttribute(ATTRIBUTE) instanceof RequestClock c) {
      c.validatedNanos = System.nanoTime();
    }
  }
}
