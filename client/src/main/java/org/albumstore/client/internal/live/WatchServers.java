package org.albumstore.client.internal.live;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The servers a run was asked for ({@code --metrics-port}, {@code --live}), opened at its start and
 * closed at its end; the live page after a linger, so that a browser sees the final summary.
 */
public final class WatchServers implements AutoCloseable {
  private final WatchServer metrics;
  private final WatchServer live;
  private final Duration linger;
  private final CountDownLatch stop;

  private WatchServers(
      WatchServer metrics, WatchServer live, Duration linger, CountDownLatch stop) {
    this.metrics = metrics;
    this.live = live;
    this.linger = linger;
    this.stop = stop;
  }

  /**
   * Starts what is asked for (a port of -1: not that one) and says where on {@code err}.
   *
   * @param stop counted down when the run is stopped: the linger then ends at once
   */
  public static WatchServers open(
      int metricsPort,
      int livePort,
      String bind,
      Duration linger,
      RunWatch watch,
      Path dir,
      PrintStream err,
      CountDownLatch stop)
      throws IOException {
    WatchServer metrics = null;
    WatchServer live = null;
    try {
      if (metricsPort >= 0) {
        ClientMetrics meters = new ClientMetrics(watch);
        watch.addListener(meters);
        metrics = WatchServer.metrics(bind, metricsPort, meters);
        err.println("metrics: " + metrics.url() + WatchServer.METRICS);
      }
      if (livePort >= 0) {
        live = WatchServer.live(bind, livePort, watch, dir);
        err.println("live page: " + live.url() + "/");
      }
    } catch (IOException | RuntimeException e) {
      if (metrics != null) {
        metrics.close();
      }
      throw new IOException("cannot serve the run's metrics or live page on " + bind + ": " + e, e);
    }
    return new WatchServers(metrics, live, linger, stop);
  }

  /** The live page's server, or null. */
  public WatchServer live() {
    return live;
  }

  /** The metrics server, or null. */
  public WatchServer metrics() {
    return metrics;
  }

  @Override
  public void close() throws InterruptedException {
    if (metrics != null) {
      metrics.close();
    }
    if (live != null) {
      stop.await(linger.toMillis(), TimeUnit.MILLISECONDS);
      live.close();
    }
  }
}
