package org.albumstore.server.metrics;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.EnumSet;
import org.albumstore.common.metrics.ServiceMeters;
import org.albumstore.server.publish.ConfirmedPublisher;
import org.albumstore.server.publish.PublishObserver;
import org.albumstore.server.read.AlbumWaiters;
import org.albumstore.server.read.ReadWaitObserver;

/**
 * The server's meters, in one Prometheus registry of its own (never Micrometer's global one, so
 * that two servers in one JVM, or a redeployed WAR, do not mix their figures), served at {@code GET
 * /metrics}:
 *
 * <ul>
 *   <li>{@code http_server_requests_seconds{method,uri,status}}: every request ({@link
 *       HttpTimers});
 *   <li>{@code albumstore_write_stage_seconds{stage}}, {@code albumstore_publish_confirm_seconds},
 *       {@code albumstore_publish_bundle_writes}: where a write spends its time ({@link
 *       WriteStages});
 *   <li>{@code albumstore_publish_channels}, {@code albumstore_publish_channels_in_use}, {@code
 *       albumstore_publish_waiters}: the channel pool;
 *   <li>{@code albumstore_read_wait_seconds{outcome}}, {@code albumstore_read_wait_rejected_total},
 *       {@code albumstore_read_waiters}: the reads that waited for an acknowledged album ({@link
 *       ReadWaits});
 *   <li>{@code hikaricp_connections_*{pool="albumstore-server-reads"}}: the read pool (HikariCP's
 *       own Micrometer tracker);
 *   <li>{@code jvm_*}, {@code process_*}, {@code system_*}: the JVM basics.
 * </ul>
 */
public final class ServerMetrics implements AutoCloseable {
  static final String CHANNELS = "albumstore.publish.channels";
  static final String CHANNELS_IN_USE = "albumstore.publish.channels.in.use";
  static final String WAITERS = "albumstore.publish.waiters";

  private final ServiceMeters meters = new ServiceMeters();
  private final MeterRegistry registry = meters.registry();
  private final HttpTimers http;
  private final WriteStages stages;
  private final ReadWaits readWaits;

  public ServerMetrics() {
    http = new HttpTimers(registry);
    stages = new WriteStages(registry);
    readWaits = new ReadWaits(registry);
  }

  /** What the waiting reads of {@code GET /albums/{albumID}} report to. */
  public ReadWaitObserver readWaitObserver() {
    return readWaits;
  }

  /** Adds the gauge of reads waiting now. */
  public void bindReadWaiters(AlbumWaiters waiters) {
    ReadWaits.bindWaiting(registry, waiters);
  }

  /** What the publisher reports confirmed writes to. */
  public PublishObserver publishObserver() {
    return stages;
  }

  /** Adds HikariCP's pool metrics (connections active, idle, pending, acquire time, ...). */
  public void bindPool(HikariDataSource pool) {
    meters.bindPool(pool);
  }

  /** Adds the channel pool's gauges: size, in use, and writes waiting for a channel. */
  public void bindPublisher(ConfirmedPublisher publisher) {
    Gauge.builder(CHANNELS, publisher, ConfirmedPublisher::channels)
        .description("Publisher threads, each owning one confirm-mode channel")
        .register(registry);
    Gauge.builder(CHANNELS_IN_USE, publisher, ConfirmedPublisher::channelsInUse)
        .description("Publisher channels busy with a message (publish, confirm, answer)")
        .register(registry);
    Gauge.builder(WAITERS, publisher, ConfirmedPublisher::queued)
        .description("Writes waiting for a publisher channel")
        .register(registry);
  }

  /**
   * Registers the timing filter on every request and the {@code /metrics} servlet, answering on
   * {@code port}.
   *
   * @throws IllegalStateException if {@code /metrics} is already mapped
   */
  public void register(ServletContext sc, MetricsPort port) {
    FilterRegistration.Dynamic filter =
        sc.addFilter("metrics-timing", new RequestMetricsFilter(http, stages));
    filter.setAsyncSupported(true);
    // REQUEST only: an error-page dispatch is part of the request already being timed.
    filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");

    ServletRegistration.Dynamic servlet =
        sc.addServlet(MetricsServlet.NAME, new MetricsServlet(meters::scrape, port));
    var conflicts = servlet.addMapping(MetricsServlet.PATH);
    if (!conflicts.isEmpty()) {
      throw new IllegalStateException("cannot map the metrics servlet: " + conflicts);
    }
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** The current figures in the Prometheus text format. */
  public String scrape() {
    return meters.scrape();
  }

  /** Unhooks the GC listeners and closes the registry; after the pool and the publisher. */
  @Override
  public void close() {
    meters.close();
  }
}
