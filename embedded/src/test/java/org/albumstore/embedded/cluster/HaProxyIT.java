package org.albumstore.embedded.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The balancer's spare slot, against the real HAProxy and two stand-in servers (the JDK's HTTP
 * server answering the health check and saying who it is): a slot where nothing listens is DOWN and
 * gets no request; a server started on its port joins the rotation once its checks pass, and
 * requests reach it; stopped, it leaves the rotation and every request still gets its answer. (The
 * nemesis adds a server this way, faults/ NemesisIT.)
 */
class HaProxyIT {
  @BeforeAll
  static void needsHaProxy() {
    ExternalTools.system()
        .requireThat(
            HaProxy.executable().isPresent(),
            "HAProxy (apt-get install haproxy)",
            "the balancer's spare slot test");
  }

  private final HttpClient http = HttpClient.newHttpClient();

  private static final Duration LIMIT = Duration.ofSeconds(30);

  @Test
  void aServerStartedOnASpareSlotJoinsTheRotationAndLeavesItWhenStopped(@TempDir Path dir)
      throws Exception {
    int serverPort = RabbitNode.freePort();
    int sparePort = RabbitNode.freePort();
    HttpServer first = standIn("first", serverPort);
    try (HaProxy balancer =
        HaProxy.start(dir, List.of(serverPort), List.of(sparePort), List.of())) {
      balancer.awaitServersUp(LIMIT);
      balancer.awaitState("spare-1", "DOWN", LIMIT); // its checks fail: nothing listens there
      assertThat(answerers(balancer, 20)).containsExactly("first");

      HttpServer added = standIn("added", sparePort);
      try {
        balancer.awaitSpareUp(0, LIMIT);
        assertThat(answerers(balancer, 20)).containsExactlyInAnyOrder("first", "added");
      } finally {
        added.stop(0);
      }
      balancer.awaitState("spare-1", "DOWN", LIMIT);
      assertThat(answerers(balancer, 20)).containsExactly("first");
    } finally {
      first.stop(0);
    }
  }

  /**
   * Two balancers started at once may be given the same free port (seen on CI: a balancer's stats
   * page answered by another test's balancer). The second one's first choice here is the first
   * one's HTTP port: its bind fails instead of sharing the port, and it starts again on fresh
   * ports. Each balancer then reaches its own server only.
   */
  @Test
  void aBalancerGivenAPortAnotherHoldsStartsAgainOnFreshPorts(@TempDir Path dir) throws Exception {
    HttpServer one = standIn("one", RabbitNode.freePort());
    HttpServer two = standIn("two", RabbitNode.freePort());
    try (HaProxy first =
        HaProxy.start(dir.resolve("first"), List.of(port(one)), List.of(), List.of())) {
      AtomicInteger choices = new AtomicInteger();
      HaProxy.PortChoice takenFirst =
          () ->
              new HaProxy.Ports(
                  choices.getAndIncrement() == 0 ? first.httpPort() : LoopbackPorts.free(),
                  LoopbackPorts.free(),
                  0,
                  LoopbackPorts.free());
      try (HaProxy second =
          HaProxy.start(
              dir.resolve("second"),
              takenFirst,
              List.of(port(two)),
              List.of(),
              List.of(),
              HaProxy.LEAST_CONN)) {
        assertThat(choices).hasValue(2);
        assertThat(second.httpPort()).isNotEqualTo(first.httpPort());
        first.awaitServersUp(LIMIT);
        second.awaitServersUp(LIMIT);
        assertThat(answerers(first, 20)).containsExactly("one");
        assertThat(answerers(second, 20)).containsExactly("two");
      }
    } finally {
      one.stop(0);
      two.stop(0);
    }
  }

  private static int port(HttpServer server) {
    return server.getAddress().getPort();
  }

  /** A stand-in server on {@code port}: 200 with its name, on the health check and any path. */
  private static HttpServer standIn(String name, int port) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    s.createContext(
        "/",
        exchange -> {
          byte[] body = name.getBytes(UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    s.start();
    return s;
  }

  /** Who answered {@code n} requests through the balancer; every one must be a 200. */
  private Set<String> answerers(HaProxy balancer, int n) throws Exception {
    Set<String> names = new HashSet<>();
    URI uri = URI.create("http://127.0.0.1:" + balancer.httpPort() + "/albumstore/albums/x");
    for (int i = 0; i < n; i++) {
      HttpResponse<String> r =
          http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      names.add(r.body());
    }
    return names;
  }
}
