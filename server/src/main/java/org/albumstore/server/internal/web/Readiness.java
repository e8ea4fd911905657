package org.albumstore.server.internal.web;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this server should get new requests, and how many it is still answering: the two facts a
 * graceful stop behind a load balancer needs.
 *
 * <p>Why a drain rather than an immediate stop: a balancer (HAProxy, an ALB) keeps routing to a
 * server until its health check fails. A server told to stop first answers {@code /health} with 503
 * while still serving everything it gets; once the balancer has noticed (the drain delay, longer
 * than the balancer's check interval times its fall count) and every request it had accepted is
 * answered, it stops. So a rolling restart fails no request.
 */
public final class Readiness {
  private static final Logger log = LoggerFactory.getLogger(Readiness.class);

  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Object idle = new Object();

  /** False once {@link #drain} began. */
  public boolean ready() {
    return !draining.get();
  }

  /** Requests accepted and not yet answered. */
  public int inFlight() {
    return inFlight.get();
  }

  void requestStarted() {
    inFlight.incrementAndGet();
  }

  void requestEnded() {
    if (inFlight.decrementAndGet() == 0) {
      synchronized (idle) {
        idle.notifyAll();
      }
    }
  }

  /**
   * Reports not ready, keeps serving for {@code delay} so that the balancer stops routing here,
   * then waits at most {@code maxWait} for the requests still in flight.
   *
   * @return the requests still in flight when it gave up (0: all answered)
   */
  public int drain(Duration delay, Duration maxWait) throws InterruptedException {
    if (draining.compareAndSet(false, true)) {
      log.info(
          "Draining: /health answers 503 now; serving on for {} ms, then waiting for {} request(s)"
              + " in flight",
          delay.toMillis(),
          inFlight.get());
    }
    Thread.sleep(delay.toMillis());
    long deadline = System.nanoTime() + maxWait.toNanos();
    synchronized (idle) {
      long left;
      while (inFlight.get() > 0 && (left = deadline - System.nanoTime()) > 0) {
        idle.wait(Math.max(1, left / 1_000_000));
      }
    }
    int left = inFlight.get();
    if (left > 0) {
      log.warn("Drained for {} ms; {} request(s) still in flight", maxWait.toMillis(), left);
    } else {
      log.info("Drained: no request in flight");
    }
    return left;
  }
}
