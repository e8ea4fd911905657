package org.albumstore.server.internal.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.metrics.ServiceMeters;
import org.albumstore.server.internal.read.AlbumWaiters;
import org.albumstore.server.internal.read.GroupReader;
import org.albumstore.server.internal.read.ReadThreads;
import org.albumstore.server.internal.read.ReadWaitObserver;

/**
 * The waits of the GETs: for a read thread, and (read-your-writes) for a new album:
 *
 * <ul>
 *   <li>{@code albumstore_read_wait_seconds{outcome}}: one sample per read that waited, by how it
 *       ended ({@code found}: 200 found by the poller, {@code announced}: 200 on a consumer's
 *       announcement, {@code pending}: 503 after the bound, {@code failed}: 503 from a database
 *       failure or a stop); its count is the number of waits, its sum the time waited;
 *   <li>{@code albumstore_read_wait_rejected_total}: reads that would have waited but got 503
 *       because the most waiting reads already waited;
 *   <li>{@code albumstore_read_waiters}: reads waiting now (beside {@code
 *       albumstore_publish_waiters}, the writes waiting for a channel).
 * </ul>
 */
final class ReadWaits implements ReadWaitObserver {
  static final String WAIT = "albumstore.read.wait";
  static final String REJECTED = "albumstore.read.wait.rejected";
  static final String WAITERS = "albumstore.read.waiters";
  static final String QUEUED = "albumstore.read.queued";
  static final String GROUP_QUERIES = "albumstore.read.group.queries";
  static final String GROUP_READS = "albumstore.read.group.reads";
  static final String GROUP_QUEUED = "albumstore.read.group.queued";

  private final Map<Outcome, Timer> waits = new EnumMap<>(Outcome.class);
  private final Counter rejected;

  ReadWaits(MeterRegistry registry) {
    for (Outcome o : Outcome.values()) {
      waits.put(
          o,
          ServiceMeters.stageTimer(WAIT)
              .description("Per GET /albums/{albumID} that waited for its album: time waited")
              .tag("outcome", o.name().toLowerCase(Locale.ROOT))
              .register(registry));
    }
    rejected =
        Counter.builder(REJECTED)
            .description("GET /albums/{albumID} answered 503 because too many reads were waiting")
            .register(registry);
  }

  /** The gauge holds {@code waiters} weakly, as Micrometer does: it lives as long as the server. */
  static void bindWaiting(MeterRegistry registry, AlbumWaiters waiters) {
    Gauge.builder(WAITERS, waiters, AlbumWaiters::waiting)
        .description("GET /albums/{albumID} waiting for an acknowledged album to be applied")
        .register(registry);
  }

  static void bindQueued(MeterRegistry registry, ReadThreads threads) {
    Gauge.builder(QUEUED, threads, ReadThreads::queued)
        .description("GETs whose query waits for a read thread")
        .register(registry);
  }

  @Override
  public void waited(Outcome outcome, long nanos) {
    waits.get(outcome).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void rejected() {
    rejected.increment();
  }

  /**
   * Group reads: queries asked and the GETs they answered (their ratio is the mean group), and the
   * GETs queued for a reader now.
   */
  static void bindGroups(MeterRegistry registry, GroupReader group) {
    FunctionCounter.builder(GROUP_QUERIES, group, GroupReader::queries)
        .description("Read queries asked, one per group of GETs")
        .register(registry);
    FunctionCounter.builder(GROUP_READS, group, GroupReader::answered)
        .description("GETs answered by the group read queries")
        .register(registry);
    Gauge.builder(GROUP_QUEUED, group, GroupReader::queued)
        .description("GETs queued for a reader now")
        .register(registry);
  }
}
