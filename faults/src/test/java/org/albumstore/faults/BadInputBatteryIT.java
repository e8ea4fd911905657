package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.albumstore.faults.battery.Battery;
import org.albumstore.faults.battery.BatteryRunner;
import org.albumstore.faults.battery.Case;
import org.albumstore.faults.battery.RawHttp;
import org.albumstore.faults.battery.RawRequest;
import org.albumstore.faults.harness.Bodies;
import org.albumstore.faults.harness.QueueContents;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.server.ServerSettings;
import org.junit.jupiter.api.Test;

/**
 * Scenario 6: bad input at scale. A battery of more than 10,000 requests generated from a fixed
 * seed (random and edge-case paths, IDs, methods, headers, multipart bodies, profiles, sizes,
 * encodings, slow, truncated and abandoned bodies, mixed with valid requests) against the real
 * server: every answer has the status the contract gives it, never a 5xx; every error carries a
 * JSON {@code msg} and no internals; {@code /health} answers 200 throughout; and the queue (no
 * consumer attached) holds exactly the writes that were answered 2xx, nothing for any rejected
 * request.
 */
class BadInputBatteryIT {
  private static final long SEED = 0x5EED_2026L;
  private static final int COUNT = 10_500;
  private static final int MAX_IMAGE = 64 * 1024;
  private static final int THREADS = 8;

  @Test
  void tenThousandGeneratedRequestsGetTheirContractStatusAndOnlyThe2xxWritesArePublished()
      throws Exception {
    try (Stack stack = Stack.create("s6-battery")) {
      stack.startServer(
          Map.of(ServerSettings.MAX_IMAGE_BYTES.variable(), Integer.toString(MAX_IMAGE)));
      List<Case> cases = Battery.generate(SEED, COUNT, stack.runId, MAX_IMAGE);
      BatteryRunner runner = new BatteryRunner(stack.server().port());

      LongAdder healthOk = new LongAdder();
      List<String> healthFailures = new ArrayList<>();
      AtomicBoolean running = new AtomicBoolean(true);
      Thread watch =
          new Thread(
              () -> watchHealth(stack.server().port(), running, healthOk, healthFailures),
              "faults-health");
      watch.start();
      long started = System.nanoTime();
      runner.run(cases, THREADS);
      double seconds = (System.nanoTime() - started) / 1e9;
      running.set(false);
      watch.join();
      int healthAfter;
      try (RawHttp http = new RawHttp(stack.server().port())) {
        healthAfter = http.exchange(new RawRequest("GET", "/albumstore/health")).status();
      }

      QueueContents queue = QueueContents.drain(stack.amqp, 100_000);
      Map<String, Long> status = runner.byStatus();
      long ok = sum(status, "200");
      long clientErrors =
          status.entrySet().stream()
              .filter(e -> e.getKey().startsWith("4"))
              .mapToLong(Map.Entry::getValue)
              .sum();
      // Tomcat's own answers to HTTP-level errors of the client, before the application sees the
      // request: 501 for a transfer coding it does not know, 505 for an HTTP version it does not
      // speak (RFC 9112 6.1 and RFC 9110 15.6.6). Every other 5xx is a failure.
      long protocolAnswers = sum(status, "501") + sum(status, "505");
      long serverErrors =
          status.entrySet().stream()
                  .filter(e -> e.getKey().startsWith("5"))
                  .mapToLong(Map.Entry::getValue)
                  .sum()
              - protocolAnswers;
      long acceptedWrites = total(runner.acceptedAlbums()) + total(runner.acceptedReviews());
      List<String> publishMismatch = new ArrayList<>();
      diff("album", runner.acceptedAlbums(), queue.albums(), publishMismatch);
      diff("review", runner.acceptedReviews(), queue.reviews(), publishMismatch);

      Summary.record(
          String.format(
              "scenario 6 (bad input battery, seed %d): requests %d in %.1f s, 2xx %d, 4xx %d,"
                  + " 5xx %d (plus HTTP protocol answers 501/505 %d), silent closes %d, abandoned %d, by status %s; writes answered 2xx %d"
                  + " (albums %d, reviews %d), published %d writes in %d messages, publish"
                  + " mismatches %d; /health 200 x%d during the run, %d after; failures %d",
              SEED,
              runner.requests(),
              seconds,
              ok,
              clientErrors,
              serverErrors,
              protocolAnswers,
              sum(status, "closed"),
              sum(status, "abandoned"),
              status,
              acceptedWrites,
              total(runner.acceptedAlbums()),
              total(runner.acceptedReviews()),
              queue.albumWrites() + queue.reviewWrites(),
              queue.messages(),
              publishMismatch.size(),
              healthOk.sum(),
              healthAfter,
              runner.failureCount()));

      assertThat(runner.requests()).isGreaterThanOrEqualTo(10_000);
      assertThat(runner.failures()).as("requests answered against the contract").isEmpty();
      assertThat(serverErrors).as("5xx answers other than 501/505").isZero();
      assertThat(healthFailures).as("/health during the battery").isEmpty();
      assertThat(healthOk.sum()).as("/health checks during the battery").isPositive();
      assertThat(healthAfter).as("/health after the battery").isEqualTo(200);
      assertThat(queue.undecodable()).as("undecodable messages published").isZero();
      assertThat(publishMismatch)
          .as("writes published without a 2xx, or 2xx without a publish")
          .isEmpty();
      assertThat(acceptedWrites)
          .as("the battery's valid writes were accepted")
          .isGreaterThan(2_000);
      assertThat(clientErrors)
          .as("the battery's invalid requests were refused")
          .isGreaterThan(5_000);
    }
  }

  /**
   * The two HTTP-level errors Tomcat answers with a 5xx are the client's, not the server's: their
   * {@code msg} must say what to change, not "internal error; retry later", which sends a client
   * into retries that can never succeed.
   */
  @Test
  void clientProtocolErrorsAreNotAnsweredAsInternalErrors() throws Exception {
    try (Stack stack = Stack.create("s6-protocol")) {
      stack.startServer(Map.of());
      List<String> misleading = new ArrayList<>();
      try (RawHttp http = new RawHttp(stack.server().port())) {
        for (RawRequest r :
            List.of(
                new RawRequest("POST", "/albumstore/review/like/a1")
                    .noContentLength()
                    .header("Transfer-Encoding", "gzip"),
                new RawRequest("POST", "/albumstore/review/like/a1").version("HTTP/2.0"))) {
          RawHttp.Response resp = http.exchange(r);
          http.close();
          if (resp.status() >= 500 && !isActionable(resp.text())) {
            misleading.add(r.describe() + " -> " + resp.status() + " " + resp.text());
          }
        }
      }
      Summary.record(
          "scenario 6b (HTTP protocol errors of the client): misleading 5xx answers "
              + misleading.size()
              + (misleading.isEmpty() ? "" : " " + misleading));
      assertThat(misleading)
          .as(
              "client protocol errors answered as if the server had failed; the server's"
                  + " ErrorMessages.forStatus needs messages of its own for 501 and 505")
          .isEmpty();
    }
  }

  private static boolean isActionable(String body) {
    return Bodies.hasJsonMsg(body) && !body.contains("internal error");
  }

  private static void watchHealth(
      int port, AtomicBoolean running, LongAdder ok, List<String> failures) {
    try (RawHttp http = new RawHttp(port)) {
      while (running.get()) {
        try {
          RawHttp.Response r = http.exchange(new RawRequest("GET", "/albumstore/health"));
          if (r.status() == 200) {
            ok.increment();
          } else if (failures.size() < 10) {
            failures.add("status " + r.status() + ": " + r.text());
          }
        } catch (Exception e) {
          if (failures.size() < 10) {
            failures.add(e.toString());
          }
          http.close();
        }
        Thread.sleep(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void diff(
      String what, Map<String, Long> accepted, Map<String, Long> published, List<String> out) {
    for (String k : new TreeSet<>(union(accepted, published))) {
      long a = accepted.getOrDefault(k, 0L);
      long p = published.getOrDefault(k, 0L);
      if (a != p && out.size() < 20) {
        out.add(what + " " + k + ": answered 2xx " + a + " times, published " + p + " times");
      }
    }
  }

  private static TreeSet<String> union(Map<String, Long> a, Map<String, Long> b) {
    TreeSet<String> s = new TreeSet<>(a.keySet());
    s.addAll(b.keySet());
    return s;
  }

  private static long total(Map<String, Long> m) {
    return m.values().stream().mapToLong(Long::longValue).sum();
  }

  private static long sum(Map<String, Long> m, String key) {
    return Objects.requireNonNullElse(m.get(key), 0L);
  }
}
