package org.albumstore.client.internal.live;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.stats.IntervalSink;
import org.albumstore.client.internal.stats.IntervalStats;
import org.albumstore.client.internal.stats.RunStatistics;
import org.albumstore.common.metrics.MetricNames;

/**
 * The run's figures as Prometheus meters ({@code --metrics-port}), named in {@link MetricNames}:
 * requests finished by type and outcome, a latency histogram per type (the server's buckets, so
 * that a panel can set the two side by side), in flight, the queue depth, the run's phase.
 *
 * <p>Fed once a second from the timeline's interval (the same histograms as the report), not per
 * request: the event loops pay nothing for it. The timer gets each distinct value of the interval's
 * HdrHistogram as many times as it was recorded, on the timeline's thread.
 */
public final class ClientMetrics implements IntervalSink {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<RequestType, Timer> latency = new EnumMap<>(RequestType.class);
  private final Map<RequestType, Counter> ok = new EnumMap<>(RequestType.class);
  private final Map<RequestType, Counter> failed = new EnumMap<>(RequestType.class);

  public ClientMetrics(RunWatch watch) {
    for (RequestType t : RequestType.values()) {
      latency.put(
          t,
          Timer.builder(MetricNames.CLIENT_REQUESTS)
              .description("Successful requests, due time to the end of the last attempt")
              .tag(MetricNames.CLIENT_TYPE_TAG, t.slug())
              .publishPercentileHistogram()
              .minimumExpectedValue(Duration.ofNanos(100_000))
              .maximumExpectedValue(Duration.ofSeconds(30))
              .register(registry));
      ok.put(t, finished(t, "ok"));
      failed.put(t, finished(t, "failed"));
    }
    Gauge.builder(MetricNames.CLIENT_IN_FLIGHT, watch, RunWatch::inFlight)
        .description("Requests sent and not yet finished")
        .register(registry);
    Gauge.builder(
            MetricNames.CLIENT_QUEUE_DEPTH,
            watch,
            w -> w.queueDepth() < 0 ? Double.NaN : w.queueDepth())
        .description("The write queue's depth as the client last sampled it")
        .register(registry);
    // The JVM's figures read at scrape time (the dashboard's JVM row shows the client beside the
    // services); no GC listener, nothing that runs between scrapes.
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    for (RunPhase p : RunPhase.values()) {
      Gauge.builder(MetricNames.CLIENT_PHASE, watch, w -> w.phase() == p ? 1 : 0)
          .description("1 for the phase the run is in")
          .tag(MetricNames.PHASE_TAG, p.word())
          .register(registry);
    }
  }

  private Counter finished(RequestType t, String outcome) {
    return Counter.builder(MetricNames.CLIENT_FINISHED)
        .description("Requests finished, successful or failed after all retries")
        .tag(MetricNames.CLIENT_TYPE_TAG, t.slug())
        .tag(MetricNames.OUTCOME_TAG, outcome)
        .register(registry);
  }

  @Override
  public void onInterval(double endSeconds, double intervalSeconds, RunStatistics.Tick tick) {
    for (Map.Entry<RequestType, IntervalStats> e : tick.types().entrySet()) {
      IntervalStats s = e.getValue();
      ok.get(e.getKey()).increment(s.ok());
      failed.get(e.getKey()).increment(s.failed());
      record(tick.histograms().get(e.getKey()), latency.get(e.getKey()));
    }
  }

  /** Every value of {@code micros} into {@code timer}, as often as it was recorded. */
  static void record(Histogram micros, Timer timer) {
    if (micros == null || micros.getTotalCount() == 0) {
      return;
    }
    for (HistogramIterationValue v : micros.recordedValues()) {
      long value = micros.medianEquivalentValue(v.getValueIteratedTo());
      for (long i = v.getCountAddedInThisIterationStep(); i > 0; i--) {
        timer.record(value, TimeUnit.MICROSECONDS);
      }
    }
  }

  /** The Prometheus text format of every meter. */
  public String scrape() {
    return registry.scrape();
  }
}
