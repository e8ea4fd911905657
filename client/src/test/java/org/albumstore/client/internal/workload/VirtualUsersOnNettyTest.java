package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.albumstore.client.internal.http.AlbumImage;
import org.albumstore.client.internal.http.AsyncAlbumStoreClient;
import org.albumstore.client.internal.http.AsyncTransport;
import org.albumstore.client.internal.http.IdempotencyKeys;
import org.albumstore.client.internal.http.RetryPolicy;
import org.albumstore.client.internal.http.TransportKind;
import org.albumstore.client.internal.stats.Completion;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.client.internal.verify.AcknowledgedSegment;
import org.albumstore.client.internal.verify.ExpectedCounts;
import org.junit.jupiter.api.Test;

/**
 * Virtual users as the run starts them on the Netty transport, each on a lane of its own (one
 * connection, one event loop), against a real HTTP server: the closed model holds (never more
 * requests in flight than users, and all users in flight at once), and retries keep their
 * idempotency key.
 */
class VirtualUsersOnNettyTest {
  private static final int USERS = 6;
  private static final int ITERATIONS = 3;

  @Test
  void usersKeepOneRequestInFlightEachAndRetryWithTheSameKey() throws Exception {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    AtomicInteger albums = new AtomicInteger();
    LongAdder requests = new LongAdder();
    // The first USERS requests are held until all of them are in: proof that every user sends
    // at once, whatever the timing; later ones are answered at once.
    CountDownLatch allIn = new CountDownLatch(USERS);
    Set<String> refusedOnce = ConcurrentHashMap.newKeySet();
    List<String> likeKeys = new java.util.concurrent.CopyOnWriteArrayList<>();
    ExecutorService serverThreads = Executors.newFixedThreadPool(USERS + 2);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(serverThreads);
    server.createContext(
        "/",
        ex -> {
          int now = inFlight.incrementAndGet();
          maxInFlight.accumulateAndGet(now, Math::max);
          requests.increment();
          try {
            ex.getRequestBody().readAllBytes();
            if (allIn.getCount() > 0) {
              allIn.countDown();
              allIn.await(20, TimeUnit.SECONDS);
            }
            String path = ex.getRequestURI().getPath();
            String key = ex.getRequestHeaders().getFirst("Idempotency-Key");
            int status = 200;
            byte[] body = new byte[0];
            if (path.endsWith("/albums")) {
              body =
                  ("{\"albumID\":\"a" + albums.incrementAndGet() + "\"}")
                      .getBytes(StandardCharsets.UTF_8);
            } else if (path.contains("/review/like/")) {
              likeKeys.add(key);
              if (key.endsWith("-l1") && refusedOnce.add(key)) {
                status = 503; // the first attempt of every first like
              }
            }
            inFlight.decrementAndGet();
            ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
              ex.getResponseBody().write(body);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            ex.close();
          }
        });
    server.start();
    LongAdder ok = new LongAdder();
    LongAdder retried = new LongAdder();
    RequestObserver observer =
        new RequestObserver() {
          @Override
          public void onCompleted(Completion c) {
            if (c.ok()) {
              ok.increment();
            }
            retried.add(c.attempts() - 1L);
          }
        };
    RetryPolicy quickRetries =
        new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(5));
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/albumstore";
    try (AsyncTransport transport =
        (AsyncTransport) TransportKind.NETTY.open(url, USERS, 2, Duration.ofSeconds(30))) {
      AsyncAlbumStoreClient client =
          AsyncAlbumStoreClient.create(transport, quickRetries, observer, AlbumImage.builtIn());
      List<AcknowledgedSegment> segments = new ArrayList<>();
      List<CompletableFuture<Void>> users = new ArrayList<>();
      for (int u = 0; u < USERS; u++) {
        AcknowledgedSegment acknowledged = new AcknowledgedSegment();
        segments.add(acknowledged);
        users.add(
            new VirtualUser(
                    client.forOneUser(),
                    new WriterJob(
                        Workload.ALBUM_REVIEWS,
                        Pacer.UNPACED,
                        new IdempotencyKeys("run1"),
                        "t" + u,
                        ITERATIONS,
                        acknowledged,
                        new RecentAlbums(16),
                        () -> false,
                        false))
                .start());
      }
      CompletableFuture.allOf(users.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

      int logical = USERS * ITERATIONS * 4;
      assertThat(maxInFlight.get()).isEqualTo(USERS);
      assertThat(ok.sum()).isEqualTo(logical);
      assertThat(retried.sum()).isEqualTo(USERS * ITERATIONS); // every first like, once
      assertThat(requests.sum()).isEqualTo(logical + USERS * ITERATIONS);
      assertThat(likeKeys.stream().filter(k -> k.equals("run1-t0-0-l1"))).hasSize(2);
      for (AcknowledgedSegment acknowledged : segments) {
        assertThat(acknowledged.size()).isEqualTo(ITERATIONS);
        for (int i = 0; i < ITERATIONS; i++) {
          ExpectedCounts e = acknowledged.expected(i);
          assertThat(e).isEqualTo(new ExpectedCounts(e.albumId(), 2, 0, 1, 0));
        }
      }
    } finally {
      server.stop(0);
      serverThreads.shutdownNow();
    }
  }
}
