package org.albumstore.common.metrics;

import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.impl.MicrometerMetricsCollector;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;

/**
 * What the server's and the consumer's metrics have in common: one Prometheus registry of the
 * service's own (never Micrometer's global one, so two services in one JVM, or a redeployed WAR,
 * keep their figures apart), the JVM basics (heap and non-heap memory, GC pauses, threads, classes,
 * CPU, uptime: Micrometer's own binders), HikariCP's pool metrics, amqp-client's metrics, and the
 * histogram range of the per-write stage timers. Shared so that both expose the same names.
 */
public final class ServiceMeters implements AutoCloseable {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  /** Holds JMX notification listeners: closed with the registry, or a redeployed WAR leaks. */
  private final JvmGcMetrics gc = new JvmGcMetrics();

  public ServiceMeters() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    gc.bindTo(registry);
  }

  /**
   * A timer with a percentile histogram from 20 µs to 60 s: the stages of a write are often below
   * Micrometer's default 1 ms floor, and a quantile can only be read from buckets that exist.
   */
  public static Timer.Builder stageTimer(String name) {
    return Timer.builder(name)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(20_000))
        .maximumExpectedValue(Duration.ofSeconds(60));
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** Adds HikariCP's pool metrics (connections active, idle, pending, acquire time, ...). */
  public void bindPool(HikariDataSource pool) {
    pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
  }

  /**
   * Adds amqp-client's own metrics for every connection {@code factory} opens: {@code
   * rabbitmq_connections}, {@code rabbitmq_channels}, {@code rabbitmq_published_total}, {@code
   * rabbitmq_acknowledged_published_total}, {@code rabbitmq_not_acknowledged_published_total},
   * {@code rabbitmq_consumed_total}, {@code rabbitmq_acknowledged_total}, {@code
   * rabbitmq_rejected_total}, ... (amqp-client's {@link MicrometerMetricsCollector}, prefix {@code
   * rabbitmq}).
   */
  public void bindAmqp(ConnectionFactory factory) {
    factory.setMetricsCollector(new MicrometerMetricsCollector(registry));
  }

  /** The current figures in the Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }

  /** Unhooks the GC listeners and closes the registry. */
  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
