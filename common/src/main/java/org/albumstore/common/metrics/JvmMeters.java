package org.albumstore.common.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The JVM basics every scrape should have: heap and non-heap memory, GC pauses, threads, classes,
 * CPU (process and system) and uptime. Micrometer's own binders; nothing here is ours but the
 * choice. Shared so that the server and the consumer expose the same names.
 */
public final class JvmMeters {
  private JvmMeters() {}

  /**
   * Binds the basics to {@code registry}.
   *
   * @return the GC binder, which holds JMX notification listeners: close it on shutdown, or a
   *     redeployed WAR leaks its class loader
   */
  public static JvmGcMetrics bind(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    return gc;
  }
}
