package org.albumstore.server.internal.metrics;

import com.rabbitmq.client.ConnectionFactory;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.tomcat.TomcatMetrics;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.EnumSet;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.albumstore.common.metrics.ServiceMeters;
import org.albumstore.server.internal.publish.ConfirmedPublisher;
import org.albumstore.server.internal.publish.PublishObserver;
import org.albumstore.server.internal.read.AlbumWaiters;
import org.albumstore.server.internal.read.GroupReader;
import org.albumstore.server.internal.read.ReadThreads;
import org.albumstore.server.internal.read.ReadWaitObserver;

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
 *   <li>{@code albumstore_write_rejected_total{reason}}: the writes answered 503, by why ({@link
 *       WriteStages});
 *   <li>{@code albumstore_publish_channels}, {@code albumstore_publish_channels_in_use}, {@code
 *       albumstore_publish_waiters}: the channel pool; {@code albumstore_broker_blocked}: 1 while
 *       the broker blocks publishing (a resource alarm), else 0;
 *   <li>{@code albumstore_ready}: 1 while the server takes writes (not draining, the broker
 *       connected), else 0: what an alert can read without a probe of its own. Unlike {@code GET
 *       /health} it leaves the database out, so that a scrape never waits for a pooled connection;
 *       a database that is down shows in {@code hikaricp_connections_timeout_total};
 *   <li>{@code albumstore_read_wait_seconds{outcome}}, {@code albumstore_read_wait_rejected_total},
 *       {@code albumstore_read_waiters}: the reads that waited for an acknowledged album, and
 *       {@code albumstore_read_queued}: the queries that wait for a read thread ({@link
 *       ReadWaits});
 *   <li>{@code hikaricp_connections_*{pool="albumstore-server-reads"}}: the read pool (HikariCP's
 *       own Micrometer tracker);
 *   <li>{@code rabbitmq_connections}, {@code rabbitmq_channels}, {@code rabbitmq_published_total},
 *       {@code rabbitmq_acknowledged_published_total}, {@code
 *       rabbitmq_not_acknowledged_published_total}, {@code rabbitmq_unrouted_published_total}, ...:
 *       amqp-client's own collector on the publishing connection;
 *   <li>{@code tomcat_threads_busy_threads}, {@code tomcat_threads_current_threads}, {@code
 *       tomcat_threads_config_max_threads}, {@code tomcat_global_request_*}, {@code
 *       tomcat_global_sent_bytes_total}, {@code tomcat_global_received_bytes_total}, {@code
 *       tomcat_global_error_total}, tagged {@code name} by connector: Micrometer's {@link
 *       TomcatMetrics}, read from Tomcat's JMX beans. The same holds for the WAR in a stock Tomcat:
 *       the container registers its connectors' beans in the JVM's platform MBean server, which the
 *       web application reads (with several applications in one Tomcat, each reports the same
 *       container-wide connector figures);
 *   <li>{@code jvm_*}, {@code process_*}, {@code system_*}: the JVM basics.
 * </ul>
 */
public final class ServerMetrics implements AutoCloseable {
  static final String CHANNELS = "albumstore.publish.channels";
  static final String CHANNELS_IN_USE = "albumstore.publish.channels.in.use";
  static final String WAITERS = "albumstore.publish.waiters";
  static final String BROKER_BLOCKED = "albumstore.broker.blocked";
  static final String READY = "albumstore.ready";

  private final ServiceMeters meters = new ServiceMeters();
  private final MeterRegistry registry = meters.registry();
  private final HttpTimers http;
  private final WriteStages stages;
  private final ReadWaits readWaits;

  /**
   * Listens for connectors registered later: closed with the registry, or a redeployed WAR leaks.
   */
  private final TomcatMetrics tomcat = new TomcatMetrics(null, List.of());

  public ServerMetrics() {
    tomcat.bindTo(registry);
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

  /** Adds the gauge of queries waiting for a read thread now. */
  public void bindReadThreads(ReadThreads threads) {
    ReadWaits.bindQueued(registry, threads);
  }

  /** Adds the counters of group reads: queries asked, GETs they answered, GETs queued now. */
  public void bindGroupReader(GroupReader group) {
    ReadWaits.bindGroups(registry, group);
  }

  /** What the publisher reports confirmed writes to. */
  public PublishObserver publishObserver() {
    return stages;
  }

  /** Adds HikariCP's pool metrics (connections active, idle, pending, acquire time, ...). */
  public void bindPool(HikariDataSource pool) {
    meters.bindPool(pool);
  }

  /** Adds amqp-client's metrics for the connection {@code factory} opens. */
  public void bindAmqp(ConnectionFactory factory) {
    meters.bindAmqp(factory);
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
    Gauge.builder(BROKER_BLOCKED, publisher, p -> p.brokerBlocked() ? 1 : 0)
        .description("1 while the broker blocks publishing (connection.blocked), else 0")
        .register(registry);
  }

  /**
   * Adds the readiness gauge: 1 while {@code ready}, else 0. Read at scrape time, so {@code ready}
   * must answer at once (nothing that waits for a pool or the network).
   */
  public void bindReady(BooleanSupplier ready) {
    Gauge.builder(READY, ready, r -> r.getAsBoolean() ? 1 : 0)
        .description("1 while the server takes writes (not draining, broker connected), else 0")
        .strongReference(true) // a lambda nobody else holds: a weak one would read NaN after GC
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
    tomcat.close();
    meters.close();
  }
}
