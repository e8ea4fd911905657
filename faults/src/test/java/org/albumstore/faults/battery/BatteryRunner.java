package org.albumstore.faults.battery;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.albumstore.faults.harness.Bodies;

/**
 * Runs a battery with a few threads, each over its own kept-alive connection, and checks every
 * answer against its case: an allowed status, never a 5xx, a JSON {@code msg} without internals on
 * every error, the right body on a 2xx. It records every write a 2xx acknowledged, so that the
 * queue can be compared with them afterwards.
 */
public final class BatteryRunner {
  private final int port;
  private final Map<String, LongAdder> byStatus = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> byCategory = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> acceptedAlbums = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> acceptedReviews = new ConcurrentHashMap<>();
  private final List<String> failures = new ArrayList<>();
  private final LongAdder failureCount = new LongAdder();
  private final LongAdder requests = new LongAdder();

  public BatteryRunner(int port) {
    this.port = port;
  }

  /** Runs all cases on {@code threads} threads; returns when every case is done. */
  public void run(List<Case> cases, int threads) throws InterruptedException {
    AtomicInteger next = new AtomicInteger();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread w =
          new Thread(
              () -> {
                try (RawHttp http = new RawHttp(port)) {
                  for (int n; (n = next.getAndIncrement()) < cases.size(); ) {
                    runOne(http, n, cases.get(n));
                  }
                }
              },
              "faults-battery-" + i);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
  }

  private void runOne(RawHttp http, int n, Case c) {
    requests.increment();
    byCategory.computeIfAbsent(c.category(), k -> new LongAdder()).increment();
    RawHttp.Response r;
    try {
      switch (c.delivery()) {
        case SLOW -> r = http.slow(c.request(), 4 + n % 5, 20 + n % 30);
        case TRUNCATED -> r = http.truncated(c.request(), c.sent());
        case ABANDONED -> {
          http.abandon(c.request(), c.sent());
          count("abandoned");
          return;
        }
        default -> r = http.exchange(c.request());
      }
    } catch (IOException e) {
      if (c.expect().closeOk()) {
        count("closed");
      } else {
        fail(n, c, "I/O error " + e);
      }
      http.close();
      return;
    }
    count(r.status() < 0 ? "closed" : Integer.toString(r.status()));
    check(n, c, r);
  }

  private void check(int n, Case c, RawHttp.Response r) {
    int s = r.status();
    if (!c.expect().allows(s)) {
      fail(n, c, "status " + s + ", expected " + c.expect() + ": " + shorten(r.text()));
    }
    boolean head = c.request().method().equals("HEAD");
    if (s >= 400 && !head) {
      String type = r.header("content-type");
      String internal = Bodies.internalDetail(r.text());
      if (type == null || !type.startsWith("application/json")) {
        fail(n, c, s + " with content type " + type + ": " + shorten(r.text()));
      } else if (!Bodies.hasJsonMsg(r.text())) {
        fail(n, c, s + " without a JSON msg: " + shorten(r.text()));
      } else if (internal != null) {
        fail(n, c, s + " body shows an internal detail (" + internal + "): " + shorten(r.text()));
      }
    }
    if (s >= 200 && s < 300 && c.request().method().equals("POST")) {
      accepted(n, c, r);
    }
  }

  private void accepted(int n, Case c, RawHttp.Response r) {
    Case.Write w = c.write();
    if (w == null) {
      fail(n, c, "2xx for a request that writes nothing: " + shorten(r.text()));
    } else if (w.album()) {
      JsonNode id = Bodies.field(r.text(), "albumID");
      JsonNode size = Bodies.field(r.text(), "imageSize");
      if (id == null || !id.isTextual() || size == null || !size.isTextual()) {
        fail(n, c, "album 200 without albumID/imageSize strings: " + shorten(r.text()));
        return;
      }
      if (w.keyAlbumId() != null && !w.keyAlbumId().equals(id.asText())) {
        fail(n, c, "albumID " + id.asText() + " is not the one its Idempotency-Key gives");
      }
      if (w.imageSize() >= 0 && !size.asText().equals(Integer.toString(w.imageSize()))) {
        fail(n, c, "imageSize " + size.asText() + ", sent " + w.imageSize());
      }
      acceptedAlbums.computeIfAbsent(id.asText(), k -> new LongAdder()).increment();
    } else {
      if (r.body().length != 0) {
        fail(n, c, "review 200 with a body: " + shorten(r.text()));
      }
      acceptedReviews
          .computeIfAbsent(w.albumId() + "|" + w.vote().wire(), k -> new LongAdder())
          .increment();
    }
  }

  private void count(String status) {
    byStatus.computeIfAbsent(status, k -> new LongAdder()).increment();
  }

  private void fail(int n, Case c, String what) {
    failureCount.increment();
    synchronized (failures) {
      if (failures.size() < 40) {
        failures.add(
            "#"
                + n
                + " "
                + c.category()
                + " "
                + c.request().describe()
                + " ("
                + c.delivery()
                + "): "
                + what);
      }
    }
  }

  private static String shorten(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  public long requests() {
    return requests.sum();
  }

  public long failureCount() {
    return failureCount.sum();
  }

  public List<String> failures() {
    synchronized (failures) {
      return List.copyOf(failures);
    }
  }

  /** Answers by status ("closed": no answer, "abandoned": the client left). */
  public Map<String, Long> byStatus() {
    Map<String, Long> m = new TreeMap<>();
    byStatus.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  public Map<String, Long> byCategory() {
    Map<String, Long> m = new TreeMap<>();
    byCategory.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** Album IDs a 2xx acknowledged, with how many times. */
  public Map<String, Long> acceptedAlbums() {
    Map<String, Long> m = new TreeMap<>();
    acceptedAlbums.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** "albumId|like" keys a 2xx acknowledged, with how many times. */
  public Map<String, Long> acceptedReviews() {
    Map<String, Long> m = new TreeMap<>();
    acceptedReviews.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }
}
