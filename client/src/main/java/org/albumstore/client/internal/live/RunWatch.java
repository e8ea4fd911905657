package org.albumstore.client.internal.live;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.albumstore.client.QueueSample;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.stats.IntervalSink;
import org.albumstore.client.internal.stats.IntervalStats;
import org.albumstore.client.internal.stats.Latencies;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.client.internal.stats.RunStatistics;

/**
 * What a run shows while it runs, for {@code --metrics-port} and {@code --live}: its phase, the
 * requests in flight, the queue depth, the verification's progress, and once a second (as an {@link
 * IntervalSink} of the timeline) the interval's figures and the running ones per type.
 *
 * <p>Why fed by the timeline and not by every request: the statistics already close an interval
 * each second, with its histograms; reading those costs the load nothing. The in-flight count is
 * the statistics' own ({@link RunStatistics#inFlight}): the load's observers are the same with or
 * without the flags, so watching a run adds nothing to its hot path.
 */
public final class RunWatch implements IntervalSink {
  /** At most an hour of one-second points, so that a long run's page stays small. */
  static final int MAX_POINTS = 3600;

  private final RunStatistics stats;
  private final List<IntervalSink> listeners = new CopyOnWriteArrayList<>();
  private final LongAdder verified = new LongAdder();
  private volatile RunPhase phase = RunPhase.STARTING;
  private volatile Supplier<QueueSample> queue = () -> null;
  private volatile long verifyTotal;
  private volatile String summaryJson;
  private volatile boolean reportWritten;

  // Guarded by this: written by the timeline's thread, read by the page's.
  private final List<Point> points = new ArrayList<>();
  private final Map<RequestType, TypeFigures> types = new EnumMap<>(RequestType.class);
  private final Map<RequestType, long[]> totals = new EnumMap<>(RequestType.class);

  public RunWatch(RunStatistics stats) {
    this.stats = stats;
  }

  /**
   * One second of the run: its end (seconds since the load started), all writes' rate, p50 and p99
   * of that second, its failures, what was in flight and the queue depth at its end (-1 unknown).
   */
  public record Point(
      double seconds,
      double rate,
      double p50Ms,
      double p99Ms,
      long failed,
      long inFlight,
      long queueDepth) {}

  /**
   * A request type's figures so far: finished ok and failed, the last second's rate, and the
   * percentiles of everything so far (as the final report computes them).
   */
  public record TypeFigures(
      String type, long ok, long failed, double rate, double p50Ms, double p99Ms) {}

  /** Also given every interval (the Prometheus meters). */
  public void addListener(IntervalSink listener) {
    listeners.add(listener);
  }

  public void phase(RunPhase p) {
    phase = p;
  }

  public RunPhase phase() {
    return phase;
  }

  /** Where the queue's latest reading comes from, once the sampler runs. */
  public void watchQueue(Supplier<QueueSample> latest) {
    queue = latest;
  }

  /** The queue's depth as last sampled, -1 when unknown. */
  public long queueDepth() {
    QueueSample q = queue.get();
    return q == null || !q.depthKnown() ? -1 : q.depth();
  }

  public long inFlight() {
    return stats.inFlight();
  }

  /** The verification is about to read {@code albums} albums. */
  public void verifying(long albums) {
    verifyTotal = albums;
    phase = RunPhase.VERIFY;
  }

  /** Counts the verification's reads (an album read again counts again, up to the total). */
  public RequestObserver verifyObserver() {
    return c -> verified.increment();
  }

  public long verifyTotal() {
    return verifyTotal;
  }

  public long verifyDone() {
    return Math.min(verified.sum(), verifyTotal);
  }

  /** The run's summary ({@code summary.json}'s text) and whether report.html was written. */
  public void finished(String summaryJson, boolean reportWritten) {
    this.summaryJson = summaryJson;
    this.reportWritten = reportWritten;
    phase = RunPhase.DONE;
  }

  public String summaryJson() {
    return summaryJson;
  }

  public boolean reportWritten() {
    return reportWritten;
  }

  @Override
  public void onInterval(double endSeconds, double intervalSeconds, RunStatistics.Tick tick) {
    for (IntervalSink l : listeners) {
      l.onInterval(endSeconds, intervalSeconds, tick);
    }
    IntervalStats w = tick.writes();
    double rate = intervalSeconds > 0 ? (w.ok() + w.failed()) / intervalSeconds : 0;
    Point p =
        new Point(endSeconds, rate, w.p50Ms(), w.p99Ms(), w.failed(), inFlight(), queueDepth());
    Map<RequestType, TypeFigures> now = new EnumMap<>(RequestType.class);
    synchronized (this) {
      for (Map.Entry<RequestType, IntervalStats> e : tick.types().entrySet()) {
        long[] t = totals.computeIfAbsent(e.getKey(), k -> new long[2]);
        IntervalStats s = e.getValue();
        t[0] += s.ok();
        t[1] += s.failed();
        if (t[0] + t[1] > 0) {
          now.put(e.getKey(), figures(e.getKey(), t, s, intervalSeconds));
        }
      }
      types.clear();
      types.putAll(now);
      if (points.size() == MAX_POINTS) {
        points.remove(0);
      }
      points.add(p);
    }
  }

  private TypeFigures figures(RequestType type, long[] total, IntervalStats s, double seconds) {
    var h = stats.histogram(type);
    return new TypeFigures(
        type.label(),
        total[0],
        total[1],
        seconds > 0 ? (s.ok() + s.failed()) / seconds : 0,
        Latencies.percentileMs(h, 50.0),
        Latencies.percentileMs(h, 99.0));
  }

  /** The seconds so far, oldest first. */
  public synchronized List<Point> points() {
    return List.copyOf(points);
  }

  /** Each type's figures as of the last second. */
  public synchronized List<TypeFigures> types() {
    return List.copyOf(types.values());
  }
}
