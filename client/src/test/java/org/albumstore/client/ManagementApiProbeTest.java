package org.albumstore.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ManagementApiProbeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void readsDepthUnackedAndRatesFromTheQueueObject() throws Exception {
    String body =
        "{\"name\":\"albumstore.writes\",\"messages\":120,\"messages_ready\":100,"
            + "\"messages_unacknowledged\":20,\"message_stats\":{\"publish_details\":{\"rate\":2500.5},"
            + "\"deliver_get_details\":{\"rate\":2400.0}}}";
    QueueSample s = ManagementApiProbe.parse(JSON.readTree(body), 7);
    assertThat(s).isEqualTo(new QueueSample(7, "management-api", 120, 20, 2500.5, 2400.0));
    assertThat(s.drained()).isFalse();
  }

  @Test
  void aFreshQueueHasUnknownDepthAndAnIdleOneZeroRates() throws Exception {
    QueueSample fresh = ManagementApiProbe.parse(JSON.readTree("{\"name\":\"q\"}"), 1);
    assertThat(fresh.depthKnown()).isFalse();
    QueueSample idle =
        ManagementApiProbe.parse(
            JSON.readTree("{\"messages\":0,\"messages_unacknowledged\":0}"), 1);
    assertThat(idle.drained()).isTrue();
    assertThat(idle.publishRate()).isZero();
  }

  @Test
  void sumsThePartitionsUpToTheFirstMissingOneWithBasicAuthAndAnEncodedVhost() throws Exception {
    List<String> paths = new CopyOnWriteArrayList<>();
    AtomicReference<String> auth = new AtomicReference<>();
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext(
        "/",
        ex -> {
          String at = ex.getRequestURI().getRawPath();
          paths.add(at);
          auth.set(ex.getRequestHeaders().getFirst("Authorization"));
          if (!at.matches(".*/albumstore\\.writes(\\.[12])?")) {
            ex.sendResponseHeaders(404, -1); // partitions 0 to 2 exist
            ex.close();
            return;
          }
          byte[] b =
              "{\"messages\":3,\"messages_unacknowledged\":1}".getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, b.length);
          ex.getResponseBody().write(b);
          ex.close();
        });
    http.start();
    try {
      String api = "http://127.0.0.1:" + http.getAddress().getPort() + "/";
      ManagementApiProbe probe =
          new ManagementApiProbe(api, "/", "albumstore.writes", "guest", "guest");
      QueueSample s = probe.sample();
      assertThat(s.depth()).isEqualTo(9);
      assertThat(s.unacked()).isEqualTo(3);
      assertThat(paths)
          .containsExactly(
              "/api/queues/%2F/albumstore.writes",
              "/api/queues/%2F/albumstore.writes.1",
              "/api/queues/%2F/albumstore.writes.2",
              "/api/queues/%2F/albumstore.writes.3");
      assertThat(auth.get()).isEqualTo("Basic Z3Vlc3Q6Z3Vlc3Q=");
      ManagementApiProbe missing = new ManagementApiProbe(api, "/", "x y", "guest", "guest");
      assertThat(missing.queueUri(0).getRawPath()).isEqualTo("/api/queues/%2F/x%20y");
    } finally {
      http.stop(0);
    }
  }

  @Test
  void aNon200AnswerIsAnError() throws Exception {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext(
        "/",
        ex -> {
          ex.sendResponseHeaders(404, -1);
          ex.close();
        });
    http.start();
    try {
      ManagementApiProbe probe =
          new ManagementApiProbe(
              "http://127.0.0.1:" + http.getAddress().getPort(), "/", "nope", "guest", "guest");
      assertThatThrownBy(probe::sample).isInstanceOf(IOException.class).hasMessageContaining("404");
    } finally {
      http.stop(0);
    }
  }
}
