package org.albumstore.server.internal.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.albumstore.common.metrics.MetricNames;

/**
 * {@code http_server_requests_seconds{method,uri,status}}: one timer per endpoint, method and
 * status, each with a percentile histogram (the buckets let a reader compute any quantile over any
 * window, e.g. the client's delta between the start and the end of a run).
 *
 * <p>Why an array: looking a timer up by its tags in the registry builds an ID and hashes it on
 * every request. Here the lookup is an index into a fixed array (endpoint × method × status), and a
 * timer is registered once, the first time its combination occurs.
 */
final class HttpTimers {

  private static final String[] METHODS = {"GET", "POST", "OTHER"};
  private static final int STATUSES = 500; // 100..599

  private final MeterRegistry registry;
  private final AtomicReferenceArray<Timer> timers =
      new AtomicReferenceArray<>(Endpoint.values().length * METHODS.length * STATUSES);

  HttpTimers(MeterRegistry registry) {
    this.registry = registry;
  }

  void record(Endpoint endpoint, String method, int status, long nanos) {
    timer(endpoint, methodIndex(method), status).record(nanos, TimeUnit.NANOSECONDS);
  }

  Timer timer(Endpoint endpoint, int method, int status) {
    int s = status < 100 || status > 599 ? 500 : status;
    int i = (endpoint.ordinal() * METHODS.length + method) * STATUSES + (s - 100);
    Timer t = timers.get(i);
    if (t == null) {
      // Registering is idempotent: two threads racing here get the same timer.
      t =
          Timer.builder(MetricNames.HTTP_REQUESTS)
              .description("HTTP requests, from the first filter to the response's completion")
              .tag("method", METHODS[method])
              .tag("uri", endpoint.uri())
              .tag("status", Integer.toString(s))
              .publishPercentileHistogram()
              .minimumExpectedValue(Duration.ofNanos(100_000))
              .maximumExpectedValue(Duration.ofSeconds(30))
              .register(registry);
      timers.set(i, t);
    }
    return t;
  }

  static int methodIndex(String method) {
    if ("GET".equals(method)) {
      return 0;
    }
    return "POST".equals(method) ? 1 : 2;
  }
}
