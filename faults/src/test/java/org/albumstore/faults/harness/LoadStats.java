package org.albumstore.faults.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every attempt of a load, counted: requests sent, answers by status, I/O errors, 503s without
 * {@code Retry-After}, error bodies without a JSON {@code msg}, the slowest answer, and samples of
 * anything unexpected for the failure message.
 */
public final class LoadStats {
  private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
  private final LongAdder requests = new LongAdder();
  private final LongAdder ioErrors = new LongAdder();
  private final LongAdder missingRetryAfter = new LongAdder();
  private final LongAdder errorsWithoutMsg = new LongAdder();
  private final LongAdder writesAcked = new LongAdder();
  private final LongAdder writesGivenUp = new LongAdder();
  private final LongAdder wrongAlbumIds = new LongAdder();
  private final LongAdder balancerErrors = new LongAdder();
  private long lastOkNanos; // guarded by this
  private long longestGapNanos; // guarded by this
  private final AtomicLong maxMillis = new AtomicLong();
  private final List<String> unexpected = new ArrayList<>();
  private final java.util.Queue<Long> refusalMillis =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  void attempt() {
    requests.increment();
  }

  void answered(ApiClient.Reply r) {
    statuses.computeIfAbsent(r.status(), s -> new LongAdder()).increment();
    maxMillis.accumulateAndGet(r.millis(), Math::max);
    if (r.status() == 503) {
      refusalMillis.add(r.millis());
      if (r.retryAfter() == null) {
        missingRetryAfter.increment();
      }
    }
    if (r.status() >= 400 && !Bodies.hasJsonMsg(r.body())) {
      errorsWithoutMsg.increment();
    }
  }

  void ioError(Exception e) {
    ioErrors.increment();
    if (ioErrors.sum() <= 3) {
      unexpected("I/O error: " + e);
    }
  }

  void acked() {
    writesAcked.increment();
  }

  void wrongAlbumId(String what) {
    wrongAlbumIds.increment();
    unexpected(what);
  }

  /** 502/504 from a load balancer: retried like an I/O error, never counted as an answer. */
  void balancerError() {
    balancerErrors.increment();
  }

  public long balancerErrors() {
    return balancerErrors.sum();
  }

  void gaveUp() {
    writesGivenUp.increment();
  }

  synchronized void unexpected(String what) {
    if (unexpected.size() < 20) {
      unexpected.add(what);
    }
  }

  public long requests() {
    return requests.sum();
  }

  public long status(int code) {
    LongAdder a = statuses.get(code);
    return a == null ? 0 : a.sum();
  }

  /** Answers whose status is neither 200 nor 503. */
  public long otherStatuses() {
    return statuses.entrySet().stream()
        .filter(e -> e.getKey() != 200 && e.getKey() != 503)
        .mapToLong(e -> e.getValue().sum())
        .sum();
  }

  public Map<Integer, Long> byStatus() {
    Map<Integer, Long> m = new TreeMap<>();
    statuses.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** The longest time between two 200s (or from the start to the first), in ms. */
  public synchronized long longestWithoutOkMillis() {
    return longestGapNanos / 1_000_000;
  }

  synchronized void okAt(long nanos) {
    if (lastOkNanos != 0) {
      longestGapNanos = Math.max(longestGapNanos, nanos - lastOkNanos);
    }
    lastOkNanos = nanos;
  }

  public long ioErrors() {
    return ioErrors.sum();
  }

  public long missingRetryAfter() {
    return missingRetryAfter.sum();
  }

  public long errorsWithoutMsg() {
    return errorsWithoutMsg.sum();
  }

  public long writesAcked() {
    return writesAcked.sum();
  }

  public long writesGivenUp() {
    return writesGivenUp.sum();
  }

  /** The {@code q}-quantile (0..1) of the times to a 503, in ms; 0 when there was none. */
  public long refusalMillis(double q) {
    List<Long> sorted = new ArrayList<>(refusalMillis);
    if (sorted.isEmpty()) {
      return 0;
    }
    java.util.Collections.sort(sorted);
    return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size())));
  }

  /** 200s to {@code POST /albums} whose albumID is not the one the Idempotency-Key gives. */
  public long wrongAlbumIds() {
    return wrongAlbumIds.sum();
  }

  public long maxMillis() {
    return maxMillis.get();
  }

  public synchronized List<String> unexpected() {
    return List.copyOf(unexpected);
  }

  @Override
  public String toString() {
    return "requests "
        + requests()
        + ", by status "
        + byStatus()
        + ", I/O errors "
        + ioErrors()
        + ", acked writes "
        + writesAcked()
        + ", given up "
        + writesGivenUp()
        + ", slowest "
        + maxMillis()
        + " ms"
        + (unexpected().isEmpty() ? "" : ", unexpected: " + unexpected());
  }
}
