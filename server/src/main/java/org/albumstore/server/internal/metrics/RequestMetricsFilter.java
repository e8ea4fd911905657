package org.albumstore.server.internal.metrics;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import org.albumstore.common.metrics.RequestStart;

/**
 * Times every request from the first filter to the response's completion, by endpoint, method and
 * status, and records the stages of successful writes that begin or end outside the publisher:
 * {@code arrival} (client send → filter in, from {@code X-Request-Start}), {@code validate} and
 * {@code complete} (response handed to Tomcat → request completed).
 *
 * <p>Why the end is the async completion: a write's servlet returns at once after {@code
 * startAsync}; its response is written when the broker confirms. The listener is added before the
 * container's dispatch returns, which is early enough: Tomcat completes an async request only after
 * that dispatch has ended, even when {@code complete()} was called meanwhile.
 */
final class RequestMetricsFilter implements Filter {
  private final HttpTimers timers;
  private final WriteStages stages;

  RequestMetricsFilter(HttpTimers timers, WriteStages stages) {
    this.timers = timers;
    this.stages = stages;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request instanceof HttpServletRequest req)
        || !(response instanceof HttpServletResponse resp)) {
      chain.doFilter(request, response);
      return;
    }
    RequestClock clock =
        new RequestClock(
            System.nanoTime(),
            RequestStart.delayNanos(req.getHeader(RequestStart.HEADER), Instant.now()));
    req.setAttribute(RequestClock.ATTRIBUTE, clock);
    boolean failed = true;
    try {
      chain.doFilter(req, resp);
      failed = false;
    } finally {
      if (!failed && req.isAsyncStarted()) {
        req.getAsyncContext().addListener(new Completion(req, clock));
      } else {
        // An exception escaping the servlet becomes the container's 500.
        record(req, failed && !resp.isCommitted() ? 500 : resp.getStatus(), clock);
      }
    }
  }

  private void record(HttpServletRequest req, int status, RequestClock clock) {
    long end = System.nanoTime();
    String method = req.getMethod();
    Endpoint endpoint =
        Endpoint.of(req.getHttpServletMapping().getServletName(), "GET".equals(method));
    timers.record(endpoint, method, status, end - clock.startNanos);
    if (status == 200 && clock.validatedNanos != 0) {
      stages.validated(clock.validatedNanos - clock.startNanos);
      if (clock.arrivalNanos >= 0) {
        stages.arrived(clock.arrivalNanos);
      }
      if (clock.handedOverNanos != 0) {
        stages.completed(end - clock.handedOverNanos);
      }
    }
  }

  /** Records an async request once it completed (after a timeout or an error too). */
  private final class Completion implements AsyncListener {
    private final HttpServletRequest req;
    private final RequestClock clock;

    Completion(HttpServletRequest req, RequestClock clock) {
      this.req = req;
      this.clock = clock;
    }

    @Override
    public void onComplete(AsyncEvent event) {
      ServletResponse r = event.getSuppliedResponse();
      int status = r instanceof HttpServletResponse h ? h.getStatus() : 500;
      record(req, status, clock);
    }

    @Override
    public void onTimeout(AsyncEvent event) {}

    @Override
    public void onError(AsyncEvent event) {}

    @Override
    public void onStartAsync(AsyncEvent event) {}
  }
}
