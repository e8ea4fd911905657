package org.albumstore.common.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ProbeGetTest {
  @Test
  void sendsTheHeadersAndReturnsAnErrorStatusWithItsBody() throws Exception {
    AtomicReference<String> accept = new AtomicReference<>();
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body = "{\"error\":\"Object Not Found\"}".getBytes(StandardCharsets.UTF_8);
    http.createContext(
        "/",
        ex -> {
          accept.set(ex.getRequestHeaders().getFirst("Accept"));
          ex.sendResponseHeaders(404, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    http.start();
    try {
      URI uri = URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/api/queues/x");
      ProbeGet.Response r =
          ProbeGet.get(uri, Duration.ofSeconds(5), Map.of("Accept", "application/json"));
      assertEquals(404, r.status());
      assertArrayEquals(body, r.body());
      assertEquals("application/json", accept.get());
    } finally {
      http.stop(0);
    }
  }

  @Test
  void anEndpointThatNeverAnswersEndsInATimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket s = silent.accept()) {
                  s.getInputStream().readAllBytes(); // holds the connection, says nothing
                } catch (Exception e) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      URI uri = URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/metrics");
      assertThrows(
          SocketTimeoutException.class, () -> ProbeGet.get(uri, Duration.ofMillis(200), Map.of()));
    }
  }
}
