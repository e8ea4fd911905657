package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.client.testing.StandInAlbumStore;
import org.albumstore.common.event.Vote;
import org.albumstore.common.metrics.RequestStart;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Netty transport against the stand-in Album Store on an embedded Tomcat (the API end to end),
 * against the JDK's HTTP server (Retry-After) and against raw sockets that misbehave on purpose (a
 * connection closed before the answer, an answer that never comes).
 */
class NettyTransportTest {
  @TempDir static Path dir;
  private static StandInAlbumStore server;

  @BeforeAll
  static void start() throws Exception {
    server = new StandInAlbumStore(dir.resolve("tomcat"));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static AlbumStoreClient client(Transport transport, int retries) {
    return new AlbumStoreClient(
        new RetryingCaller(transport, RetryPolicy.of(retries), Sleeper.REAL, RequestObserver.NONE),
        RequestObserver.NONE,
        AlbumImage.builtIn());
  }

  @Test
  void createsAnAlbumWithAMultipartUploadAndReviewsIt() throws Exception {
    try (NettyTransport transport =
        new NettyTransport(server.url() + "/", 1, Duration.ofSeconds(5))) {
      AlbumStoreClient client = client(transport, 0);

      Optional<String> id = client.createAlbum("netty-test-a", System.nanoTime());
      assertThat(id).isPresent();
      assertThat(client.review(Vote.LIKE, id.get(), "netty-test-l1", System.nanoTime())).isTrue();
      assertThat(client.review(Vote.DISLIKE, id.get(), "netty-test-d", System.nanoTime())).isTrue();
      assertThat(client.getReview(id.get(), System.nanoTime())).isEqualTo(ReviewCounts.found(1, 1));

      assertThat(server.imageSizes()).contains(AlbumImage.builtIn().bytes().length);
      assertThat(server.profiles())
          .contains(AlbumStoreClient.profileJson(AlbumStoreClient.PROFILE));
      assertThat(server.idempotencyKeys())
          .contains("netty-test-a", "netty-test-l1", "netty-test-d");
    }
  }

  @Test
  void theNioTransportOfOtherPlatformsWorksTheSame() throws Exception {
    try (NettyTransport transport =
        new NettyTransport(server.url(), 1, Duration.ofSeconds(5), false)) {
      AlbumStoreClient client = client(transport, 0);
      String id = client.createAlbum("netty-nio-a", System.nanoTime()).orElseThrow();
      assertThat(client.review(Vote.LIKE, id, "netty-nio-l1", System.nanoTime())).isTrue();
      assertThat(client.getReview(id, System.nanoTime())).isEqualTo(ReviewCounts.found(1, 0));
    }
  }

  @Test
  void retriesAfter503WithTheSameKeyAndAppliesTheWriteOnce() throws Exception {
    server.failFirstAttempts(2);
    try (NettyTransport transport = new NettyTransport(server.url(), 1, Duration.ofSeconds(5))) {
      AlbumStoreClient client = client(transport, 5);
      String id = client.createAlbum("netty-retry-a", System.nanoTime()).orElseThrow();
      assertThat(client.review(Vote.LIKE, id, "netty-retry-l1", System.nanoTime())).isTrue();
      assertThat(server.idempotencyKeys().stream().filter("netty-retry-l1"::equals)).hasSize(3);
      assertThat(client.getReview(id, System.nanoTime())).isEqualTo(ReviewCounts.found(1, 0));
    } finally {
      server.failFirstAttempts(0);
    }
  }

  @Test
  void manyRequestsInFlightOnOneEventLoopAllComplete() throws Exception {
    try (NettyTransport transport = new NettyTransport(server.url(), 1, Duration.ofSeconds(10))) {
      String id = client(transport, 0).createAlbum("netty-many-a", System.nanoTime()).orElseThrow();
      List<CompletableFuture<ApiResponse>> inFlight = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        inFlight.add(transport.sendAsync(ApiRequest.review(Vote.LIKE, id, "netty-many-l" + i)));
      }
      for (CompletableFuture<ApiResponse> f : inFlight) {
        assertThat(f.get().status()).isEqualTo(200);
      }
      assertThat(client(transport, 0).getReview(id, System.nanoTime()))
          .isEqualTo(ReviewCounts.found(64, 0));
    }
  }

  @Test
  void reusesTheConnectionForTheNextRequest() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    HttpServer jdk =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    jdk.createContext(
        "/",
        ex -> {
          ex.getRequestBody().readAllBytes();
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    jdk.start();
    try (ServerSocketCounter counter =
            new ServerSocketCounter(jdk.getAddress().getPort(), connections);
        NettyTransport transport = new NettyTransport(counter.url(), 1, Duration.ofSeconds(5))) {
      for (int i = 0; i < 5; i++) {
        assertThat(transport.send(ApiRequest.getReview("1")).status()).isEqualTo(200);
      }
      assertThat(connections.get()).isEqualTo(1);
    } finally {
      jdk.stop(0);
    }
  }

  /** A JDK server answering 200 to everything, on a pool big enough for {@code threads} at once. */
  private static HttpServer okServer(int threads) throws IOException {
    HttpServer jdk =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    jdk.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(threads));
    jdk.createContext(
        "/",
        ex -> {
          ex.getRequestBody().readAllBytes();
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    jdk.start();
    return jdk;
  }

  /** Sends {@code n} requests on {@code lane}, each from the callback of the one before. */
  private static CompletableFuture<Void> chain(
      AsyncTransport lane, int n, List<Boolean> onLaneThread) {
    if (n == 0) {
      return CompletableFuture.completedFuture(null);
    }
    return lane.sendAsync(ApiRequest.getReview("1"))
        .thenCompose(
            r -> {
              onLaneThread.add(
                  r.status() == 200
                      && ((io.netty.channel.EventLoop) lane.scheduler()).inEventLoop());
              return chain(lane, n - 1, onLaneThread);
            });
  }

  @Test
  void aLaneSendsOnOneConnectionAndAnswersOnItsOwnEventLoop() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    HttpServer jdk = okServer(4);
    try (ServerSocketCounter counter =
            new ServerSocketCounter(jdk.getAddress().getPort(), connections);
        NettyTransport transport = new NettyTransport(counter.url(), 2, Duration.ofSeconds(5))) {
      AsyncTransport a = transport.lane();
      AsyncTransport b = transport.lane();
      List<Boolean> onLaneThread = new java.util.concurrent.CopyOnWriteArrayList<>();
      CompletableFuture.allOf(chain(a, 10, onLaneThread), chain(b, 10, onLaneThread))
          .get(30, java.util.concurrent.TimeUnit.SECONDS);

      assertThat(onLaneThread).hasSize(20).containsOnly(true);
      assertThat(connections.get()).isEqualTo(2); // one each, kept alive
      assertThat(a.scheduler()).isNotSameAs(b.scheduler()); // spread over the event loops
    } finally {
      jdk.stop(0);
    }
  }

  @Test
  void aLaneStampsItsFirstAttemptAndThenOneInSixteen() throws Exception {
    List<Boolean> stamped = new java.util.concurrent.CopyOnWriteArrayList<>();
    HttpServer jdk =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    jdk.createContext(
        "/",
        ex -> {
          stamped.add(ex.getRequestHeaders().containsKey(RequestStart.HEADER));
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    jdk.start();
    try (NettyTransport transport =
        new NettyTransport(
            "http://127.0.0.1:" + jdk.getAddress().getPort(), 1, Duration.ofSeconds(5))) {
      AsyncTransport lane = transport.lane();
      for (int i = 0; i < 33; i++) {
        assertThat(lane.sendAsync(ApiRequest.getReview("1")).get(10, TimeUnit.SECONDS).status())
            .isEqualTo(200);
      }
      assertThat(IntStream.range(0, stamped.size()).filter(stamped::get).boxed())
          .containsExactly(0, 16, 32);
    } finally {
      jdk.stop(0);
    }
  }

  @Test
  void aLaneWhoseConnectionWasClosedReconnects() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    HttpServer jdk = okServer(2);
    try (ServerSocketCounter flaky =
            new ServerSocketCounter(jdk.getAddress().getPort(), connections, 1);
        NettyTransport transport = new NettyTransport(flaky.url(), 1, Duration.ofSeconds(5))) {
      AsyncTransport lane = transport.lane();
      assertThatThrownBy(() -> lane.send(ApiRequest.getReview("1")))
          .isInstanceOf(IOException.class);
      assertThat(lane.send(ApiRequest.getReview("1")).status()).isEqualTo(200);
      assertThat(lane.send(ApiRequest.getReview("1")).status()).isEqualTo(200);
      assertThat(connections.get()).isEqualTo(2);
    } finally {
      jdk.stop(0);
    }
  }

  @Test
  void requestsSentOnABusyLaneAllComplete() throws Exception {
    HttpServer jdk = okServer(8);
    try (NettyTransport transport =
        new NettyTransport(
            "http://127.0.0.1:" + jdk.getAddress().getPort() + "/albumstore",
            1,
            Duration.ofSeconds(5))) {
      AsyncTransport lane = transport.lane();
      List<CompletableFuture<ApiResponse>> inFlight = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        inFlight.add(lane.sendAsync(ApiRequest.getReview("1")));
      }
      for (CompletableFuture<ApiResponse> f : inFlight) {
        assertThat(f.get().status()).isEqualTo(200);
      }
    } finally {
      jdk.stop(0);
    }
  }

  @Test
  void a503CarriesItsRetryAfter() throws Exception {
    HttpServer jdk =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] body = "{\"msg\":\"busy\"}".getBytes(StandardCharsets.UTF_8);
    jdk.createContext(
        "/",
        ex -> {
          ex.getResponseHeaders().set("Retry-After", "1");
          ex.sendResponseHeaders(503, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    jdk.start();
    try (NettyTransport transport =
        new NettyTransport(
            "http://127.0.0.1:" + jdk.getAddress().getPort() + "/albumstore",
            1,
            Duration.ofSeconds(5))) {
      ApiResponse r = transport.send(ApiRequest.review(Vote.LIKE, "1", "k"));
      assertThat(r.status()).isEqualTo(503);
      assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(1));
      assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{\"msg\":\"busy\"}");
    } finally {
      jdk.stop(0);
    }
  }

  @Test
  void aConnectionClosedBeforeTheAnswerIsAnIoErrorAndTheNextRequestReconnects() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    HttpServer jdk =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    jdk.createContext(
        "/",
        ex -> {
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    jdk.start();
    // The first connection is read from and closed without an answer; later ones reach the server.
    try (ServerSocketCounter flaky =
            new ServerSocketCounter(jdk.getAddress().getPort(), connections, 1);
        NettyTransport transport = new NettyTransport(flaky.url(), 1, Duration.ofSeconds(5))) {
      assertThatThrownBy(() -> transport.send(ApiRequest.getReview("1")))
          .isInstanceOf(IOException.class);
      assertThat(transport.send(ApiRequest.getReview("1")).status()).isEqualTo(200);
      assertThat(connections.get()).isEqualTo(2);
    } finally {
      jdk.stop(0);
    }
  }

  @Test
  void anAnswerThatNeverComesTimesOut() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        NettyTransport transport =
            new NettyTransport(
                "http://127.0.0.1:" + silent.getLocalPort(), 1, Duration.ofMillis(300))) {
      assertThatThrownBy(() -> transport.send(ApiRequest.getReview("1")))
          .isInstanceOf(SocketTimeoutException.class);
    }
  }

  /**
   * Each attempt on a lane has its own deadline: an answer that comes after an earlier attempt's
   * deadline is not failed by that attempt's timer, and a later attempt still times out, no sooner
   * than its own deadline.
   */
  @Test
  void aLaneTimesOutEachAttemptAtItsOwnDeadline() throws Exception {
    Duration timeout = Duration.ofMillis(400);
    try (ScriptedServer server =
            new ScriptedServer(
                List.of(
                    new ScriptedServer.Answer(0, ok("{}")),
                    // Sent 200 ms after the first, answered 300 ms later: past the first's
                    // deadline.
                    new ScriptedServer.Answer(300, ok("{\"n\":2}")),
                    ScriptedServer.Answer.NEVER));
        NettyTransport transport = new NettyTransport(server.url(), 1, timeout)) {
      AsyncTransport lane = transport.lane();
      assertThat(lane.send(ApiRequest.getReview("1")).status()).isEqualTo(200);
      Thread.sleep(200);
      ApiResponse second = lane.send(ApiRequest.getReview("1"));
      assertThat(new String(second.body(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":2}");

      long sent = System.nanoTime();
      assertThatThrownBy(() -> lane.send(ApiRequest.getReview("1")))
          .isInstanceOf(SocketTimeoutException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - sent)).isGreaterThanOrEqualTo(timeout);
    }
  }

  /** A body in chunks is read whole, and the connection stays in step for the next request. */
  @Test
  void aChunkedAnswerIsReadWhole() throws Exception {
    String chunked =
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n"
            + "7\r\n{\"msg\":\r\n8\r\n\"busy\"}\n\r\n0\r\n\r\n";
    try (ScriptedServer server =
            new ScriptedServer(
                List.of(
                    new ScriptedServer.Answer(0, chunked), new ScriptedServer.Answer(0, ok(""))));
        NettyTransport transport = new NettyTransport(server.url(), 1, Duration.ofSeconds(5))) {
      AsyncTransport lane = transport.lane();
      ApiResponse r = lane.send(ApiRequest.getReview("1"));
      assertThat(r.status()).isEqualTo(503);
      assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(2));
      assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{\"msg\":\"busy\"}\n");
      ApiResponse next = lane.send(ApiRequest.getReview("1")); // same connection, in step
      assertThat(next.status()).isEqualTo(200);
      assertThat(next.body()).isEmpty();
      assertThat(server.connections()).isEqualTo(1);
    }
  }

  @Test
  void anAnswerTooLargeToBeThisApisIsAnIoError() throws Exception {
    String huge = "x".repeat((1 << 20) + 1);
    try (ScriptedServer server =
            new ScriptedServer(List.of(new ScriptedServer.Answer(0, ok(huge))));
        NettyTransport transport = new NettyTransport(server.url(), 1, Duration.ofSeconds(5))) {
      assertThatThrownBy(() -> transport.lane().send(ApiRequest.getReview("1")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("too large");
    }
  }

  private static String ok(String body) {
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }

  /**
   * A raw HTTP/1.1 peer that answers the n-th request it reads (on any connection) with the n-th
   * scripted answer, after its delay; {@link Answer#NEVER} reads the request and says nothing.
   */
  private static final class ScriptedServer implements AutoCloseable {
    record Answer(long delayMillis, String raw) {
      static final Answer NEVER = new Answer(0, null);
    }

    private final ServerSocket listener;
    private final List<Answer> script;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> open = new java.util.concurrent.CopyOnWriteArrayList<>();

    ScriptedServer(List<Answer> script) throws IOException {
      this.script = script;
      this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread t = new Thread(this::accept, "scripted-server");
      t.setDaemon(true);
      t.start();
    }

    String url() {
      return "http://127.0.0.1:" + listener.getLocalPort();
    }

    int connections() {
      return connections.get();
    }

    private void accept() {
      try {
        while (true) {
          Socket s = listener.accept();
          connections.incrementAndGet();
          open.add(s);
          Thread t = new Thread(() -> serve(s), "scripted-connection");
          t.setDaemon(true);
          t.start();
        }
      } catch (IOException closed) {
        // close()
      }
    }

    private void serve(Socket s) {
      try (s) {
        InputStream in = s.getInputStream();
        while (readRequestHead(in)) {
          int n = requests.getAndIncrement();
          Answer a = n < script.size() ? script.get(n) : Answer.NEVER;
          if (a.raw() == null) {
            continue; // read, never answered
          }
          Thread.sleep(a.delayMillis());
          s.getOutputStream().write(a.raw().getBytes(StandardCharsets.ISO_8859_1));
          s.getOutputStream().flush();
        }
      } catch (IOException | InterruptedException gone) {
        // the client closed, or close()
      }
    }

    /** Reads up to the blank line that ends a request without a body; false at end of stream. */
    private static boolean readRequestHead(InputStream in) throws IOException {
      int matched = 0;
      int b;
      while ((b = in.read()) != -1) {
        matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        if (matched == 4) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void close() throws IOException {
      listener.close();
      for (Socket s : open) {
        s.close();
      }
    }
  }

  @Test
  void noServerIsAConnectError() throws Exception {
    int freePort;
    try (ServerSocket s = new ServerSocket(0)) {
      freePort = s.getLocalPort();
    }
    try (NettyTransport transport =
        new NettyTransport(
            "http://127.0.0.1:" + freePort + "/albumstore", 1, Duration.ofSeconds(2))) {
      assertThatThrownBy(() -> transport.send(ApiRequest.getReview("1")))
          .isInstanceOf(ConnectException.class);
    }
  }

  /**
   * A TCP relay in front of a server that counts the connections it accepts and, for the first
   * {@code dropFirst} of them, reads the request and closes the connection without an answer.
   */
  private static final class ServerSocketCounter implements AutoCloseable {
    private final ServerSocket listener;
    private final Thread acceptor;

    ServerSocketCounter(int targetPort, AtomicInteger accepted) throws IOException {
      this(targetPort, accepted, 0);
    }

    ServerSocketCounter(int targetPort, AtomicInteger accepted, int dropFirst) throws IOException {
      listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      acceptor =
          new Thread(
              () -> {
                while (!listener.isClosed()) {
                  try {
                    Socket in = listener.accept();
                    if (accepted.incrementAndGet() <= dropFirst) {
                      in.getInputStream().read(new byte[4096]);
                      in.close();
                      continue;
                    }
                    Socket out = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                    pump(in.getInputStream(), out);
                    pump(out.getInputStream(), in);
                  } catch (IOException closed) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private static void pump(InputStream from, Socket to) {
      Thread t =
          new Thread(
              () -> {
                try {
                  from.transferTo(to.getOutputStream());
                  to.shutdownOutput();
                } catch (IOException gone) {
                  // the other side closed: nothing more to relay
                }
              });
      t.setDaemon(true);
      t.start();
    }

    String url() {
      return "http://127.0.0.1:" + listener.getLocalPort() + "/albumstore";
    }

    @Override
    public void close() throws IOException {
      listener.close();
    }
  }
}
