package org.albumstore.server.internal.web;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;

/**
 * Counts the requests in flight for {@link Readiness}: from the filter until the response is done,
 * which for an async write is the broker's confirm (or its timeout), not the servlet's return.
 */
public final class InFlightFilter implements Filter {
  private final Readiness readiness;

  public InFlightFilter(Readiness readiness) {
    this.readiness = readiness;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    readiness.requestStarted();
    boolean async = false;
    try {
      chain.doFilter(request, response);
      if (request.isAsyncStarted()) {
        request.getAsyncContext().addListener(new Ended());
        async = true;
      }
    } finally {
      if (!async) {
        readiness.requestEnded();
      }
    }
  }

  /** Ends the count once, whichever way the async request finished. */
  private final class Ended implements AsyncListener {
    private boolean ended;

    @Override
    public synchronized void onComplete(AsyncEvent event) {
      end();
    }

    @Override
    public synchronized void onTimeout(AsyncEvent event) {
      // onComplete follows; counting ends there.
    }

    @Override
    public synchronized void onError(AsyncEvent event) {
      // onComplete follows; counting ends there.
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      event.getAsyncContext().addListener(this);
    }

    private void end() {
      if (!ended) {
        ended = true;
        readiness.requestEnded();
      }
    }
  }
}
