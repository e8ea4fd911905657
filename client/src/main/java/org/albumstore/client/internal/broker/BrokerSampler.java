package org.albumstore.client.internal.broker;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.albumstore.client.QueueSample;
import org.albumstore.common.tls.TlsFailures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the write queue once a period on a thread of its own and keeps the latest reading and the
 * run's aggregates (max depth, mean and peak rates).
 *
 * <p>The source is chosen once, at start: the first candidate probe that answers (management API,
 * then AMQP). A source that fails later yields "unknown" readings until it answers again; each
 * change is logged once, never once per second.
 */
public final class BrokerSampler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BrokerSampler.class);

  private final QueueProbe probe;
  private final ScheduledExecutorService executor;
  private volatile QueueSample latest;
  private volatile QueueSample latestWithDepth;
  private boolean failing; // sampler thread only

  /**
   * How old a depth may be beside a newer reading without one and still stand for "now": RabbitMQ's
   * management plugin collects queue counts every 5 s, and a reading between two collections (or
   * while the stats move to a quorum queue's new leader) can come back without them.
   */
  static final long DEPTH_STALE_MILLIS = 5_000;

  // Guarded by this.
  private long maxDepth = -1;
  private final RateStats publish = new RateStats();
  private final RateStats deliver = new RateStats();

  /** Mean and peak of a rate over the readings that had it. */
  private static final class RateStats {
    double sum;
    double peak;
    long n;

    void add(double rate) {
      if (!Double.isNaN(rate)) {
        sum += rate;
        peak = Math.max(peak, rate);
        n++;
      }
    }

    Double mean() {
      return n == 0 ? null : sum / n;
    }

    Double peak() {
      return n == 0 ? null : peak;
    }
  }

  /**
   * The run's figures.
   *
   * @param maxDepth the deepest reading, null when the depth was never known
   * @param meanPublishRate null when unknown (also for the following)
   */
  public record Aggregate(
      Long maxDepth,
      Double meanPublishRate,
      Double peakPublishRate,
      Double meanDeliverRate,
      Double peakDeliverRate) {}

  private BrokerSampler(QueueProbe probe, QueueSample first, Duration period) {
    this.probe = probe;
    this.latest = first;
    this.latestWithDepth = first != null && first.depthKnown() ? first : null;
    if (probe == null) {
      executor = null;
      return;
    }
    accumulate(first);
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "queue-sampler");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleWithFixedDelay(
        this::sampleOnce, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Picks the first candidate that answers and starts sampling it; none answering is not an error.
   */
  public static BrokerSampler start(List<QueueProbe> candidates, Duration period) {
    QueueProbe chosen = null;
    QueueSample first = null;
    for (QueueProbe p : candidates) {
      if (chosen != null) {
        p.close();
        continue;
      }
      try {
        first = p.sample();
        chosen = p;
        log.info("queue depth: read from the {}", p.source());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.close();
      } catch (Exception e) {
        log.info("queue depth: {} not available ({})", p.source(), TlsFailures.describe(e));
        p.close();
      }
    }
    if (chosen == null) {
      log.info("queue depth: no source answered; reported as n/a");
      return new BrokerSampler(null, QueueSample.unknown(System.currentTimeMillis()), period);
    }
    return new BrokerSampler(chosen, first, period);
  }

  private void sampleOnce() {
    QueueSample s;
    try {
      s = sampleNow();
      if (failing) {
        log.info("queue depth: {} answers again", probe.source());
        failing = false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Exception e) {
      if (!failing) {
        log.warn("queue depth: {} stopped answering ({})", probe.source(), TlsFailures.describe(e));
        failing = true;
      }
      s = QueueSample.unknown(System.currentTimeMillis());
    }
    accumulate(s);
    latest = s;
    if (s.depthKnown()) {
      latestWithDepth = s;
    }
  }

  /** One reading; the periodic one and {@link #depthAtEnd} never use the probe at once. */
  private QueueSample sampleNow() throws Exception {
    synchronized (probe) {
      return probe.sample();
    }
  }

  private synchronized void accumulate(QueueSample s) {
    if (s.depthKnown()) {
      maxDepth = Math.max(maxDepth, s.depth());
    }
    publish.add(s.publishRate());
    deliver.add(s.deliverRate());
  }

  public QueueSample latest() {
    return latest;
  }

  /**
   * The newest reading that has a depth, if it is at most {@link #DEPTH_STALE_MILLIS} older than
   * the newest reading; else the newest reading (whose depth may be unknown).
   */
  public QueueSample latestDepth() {
    QueueSample newest = latest;
    QueueSample known = latestWithDepth;
    if (known != null && newest.epochMillis() - known.epochMillis() <= DEPTH_STALE_MILLIS) {
      return known;
    }
    return newest;
  }

  /**
   * The depth when the load ended: {@link #latestDepth} if it has one, else readings taken now, one
   * after another, until one has a depth or {@code limit} passes (the periodic reading may have
   * failed or timed out on a loaded machine, or fallen between two collections of counts); the
   * newest reading when none has.
   */
  public QueueSample depthAtEnd(Duration limit) throws InterruptedException {
    QueueSample known = latestDepth();
    if (known.depthKnown() || probe == null) {
      return known;
    }
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        QueueSample s = sampleNow();
        if (s.depthKnown()) {
          log.info("queue depth at the end of the load: read again, the periodic reading had none");
          return s;
        }
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        // as a failed periodic reading: try again until the limit
      }
      Thread.sleep(200);
    }
    return latest;
  }

  /** Whether any source answered at start. */
  public boolean available() {
    return probe != null;
  }

  /** {@code management-api}, {@code amqp} or {@code n/a}. */
  public String source() {
    return probe == null ? QueueSample.NONE : probe.source();
  }

  public synchronized Aggregate aggregate() {
    return new Aggregate(
        maxDepth < 0 ? null : maxDepth,
        publish.mean(),
        publish.peak(),
        deliver.mean(),
        deliver.peak());
  }

  @Override
  public void close() {
    if (executor != null) {
      executor.shutdownNow();
      try {
        if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
          log.warn("queue sampler did not stop within 5 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      probe.close();
    }
  }
}
