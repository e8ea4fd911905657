package org.albumstore.client.internal.stats;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.albumstore.client.RequestType;
import org.albumstore.client.TypeStats;

/**
 * The run's statistics: one {@link TypeRecorder} per request type, fed by every load thread, read
 * once a second by the timeline ({@link #tick()}) and once at the end.
 *
 * <p>Only {@link #tick()} moves recorded values into the cumulative histograms, so the final
 * figures must be read after a last tick taken once the load threads have stopped ({@link
 * Timeline#stop()} does that).
 */
public final class RunStatistics implements RequestObserver {
  public static final String ALL_WRITES = "all writes";

  private final Map<RequestType, TypeRecorder> byType = new EnumMap<>(RequestType.class);
  // What is in flight, counted here rather than by an observer of its own: a third observer type
  // on the load's call sites makes them megamorphic (results/client-cost/watch-cost/), with or
  // without anything watching.
  private final LongAdder started = new LongAdder();
  private final LongAdder finished = new LongAdder();
  // Guarded by this: only tick() writes them.
  private final Histogram writesInterval = Latencies.newHistogram();
  private final Histogram writesCumulative = Latencies.newHistogram();
  private long completed;
  private long failedTotal;

  public RunStatistics() {
    for (RequestType t : RequestType.values()) {
      byType.put(t, new TypeRecorder());
    }
  }

  /**
   * One second of the timeline, plus the running figures the progress line shows.
   *
   * @param histograms the interval's histogram of each type: owned by the statistics, valid (and to
   *     be read only) until the next tick
   * @param writesHistogram the interval's histogram of all writes, the same way
   */
  public record Tick(
      Map<RequestType, IntervalStats> types,
      IntervalStats writes,
      long completedSoFar,
      long failedSoFar,
      double writesP99SoFarMs,
      Map<RequestType, Histogram> histograms,
      Histogram writesHistogram) {}

  @Override
  public void onStarted(RequestType type) {
    started.increment();
  }

  @Override
  public void onCompleted(Completion c) {
    byType.get(c.type()).record(c);
    finished.increment();
  }

  /** Requests started and not yet finished (of those this observed from their start). */
  public long inFlight() {
    return Math.max(0, started.sum() - finished.sum());
  }

  @Override
  public void onRetry(RequestType type, String code) {
    byType.get(type).retried(code);
  }

  /** Closes the current interval of every type. Called by one thread at a time. */
  public synchronized Tick tick() {
    Map<RequestType, IntervalStats> types = new EnumMap<>(RequestType.class);
    Map<RequestType, Histogram> histograms = new EnumMap<>(RequestType.class);
    writesInterval.reset();
    long writesFailed = 0;
    for (Map.Entry<RequestType, TypeRecorder> e : byType.entrySet()) {
      Histogram h = e.getValue().tick();
      long failed = e.getValue().failedSinceLastTick();
      types.put(e.getKey(), interval(h, failed));
      histograms.put(e.getKey(), h);
      completed += h.getTotalCount() + failed;
      failedTotal += failed;
      if (e.getKey().isWrite()) {
        writesInterval.add(h);
        writesFailed += failed;
      }
    }
    writesCumulative.add(writesInterval);
    return new Tick(
        Collections.unmodifiableMap(types),
        interval(writesInterval, writesFailed),
        completed,
        failedTotal,
        Latencies.percentileMs(writesCumulative, 99.0),
        Collections.unmodifiableMap(histograms),
        writesInterval);
  }

  private static IntervalStats interval(Histogram h, long failed) {
    return new IntervalStats(
        h.getTotalCount(),
        failed,
        Latencies.percentileMs(h, 50.0),
        Latencies.percentileMs(h, 99.0));
  }

  /** The figures of one type, as of the last tick. */
  public TypeStats stats(RequestType type, double wallSeconds) {
    TypeRecorder r = byType.get(type);
    return of(type.label(), r.cumulativeCopy(), r.ok(), r.failed(), r.retries(), wallSeconds);
  }

  /** A copy of the latencies of one type, as of the last tick. */
  public Histogram histogram(RequestType type) {
    return byType.get(type).cumulativeCopy();
  }

  /** A copy of the latencies of all writes, as of the last tick. */
  public Histogram allWritesHistogram() {
    Histogram h = Latencies.newHistogram();
    for (RequestType t : RequestType.values()) {
      if (t.isWrite()) {
        h.add(byType.get(t).cumulativeCopy());
      }
    }
    return h;
  }

  /** The figures of all writes together, as of the last tick. */
  public TypeStats allWrites(double wallSeconds) {
    Histogram h = Latencies.newHistogram();
    long ok = 0;
    long failed = 0;
    long retries = 0;
    for (RequestType t : RequestType.values()) {
      if (t.isWrite()) {
        TypeRecorder r = byType.get(t);
        h.add(r.cumulativeCopy());
        ok += r.ok();
        failed += r.failed();
        retries += r.retries();
      }
    }
    return of(ALL_WRITES, h, ok, failed, retries, wallSeconds);
  }

  static TypeStats of(
      String label, Histogram h, long ok, long failed, long retries, double wallSeconds) {
    return withThroughput(label, h, ok, failed, retries, wallSeconds > 0 ? ok / wallSeconds : 0);
  }

  /**
   * A report row from its latencies and counts, with a throughput worked out by the caller (e.g.
   * the sum of several clients' rates).
   */
  public static TypeStats withThroughput(
      String label, Histogram h, long ok, long failed, long retries, double throughput) {
    boolean empty = h.getTotalCount() == 0;
    return new TypeStats(
        label,
        ok + failed,
        ok,
        failed,
        retries,
        throughput,
        empty ? 0 : h.getMean() / 1_000.0,
        empty ? 0 : Latencies.millis(h.getMinValue()),
        Latencies.percentileMs(h, 50.0),
        Latencies.percentileMs(h, 95.0),
        Latencies.percentileMs(h, 99.0),
        Latencies.percentileMs(h, 99.9),
        empty ? 0 : Latencies.millis(h.getMaxValue()));
  }

  /** Final failures by cause, keyed {@code "<type>: <code>"}. */
  public Map<String, Long> failures() {
    Map<String, Long> out = new TreeMap<>();
    byType.forEach(
        (t, r) -> r.failures().forEach((code, n) -> out.put(t.label() + ": " + code, n)));
    return out;
  }

  /** Retried attempts by cause, keyed {@code "<type>: <code>"}. */
  public Map<String, Long> retryCauses() {
    Map<String, Long> out = new TreeMap<>();
    byType.forEach(
        (t, r) -> r.retryCauses().forEach((code, n) -> out.put(t.label() + ": " + code, n)));
    return out;
  }
}
