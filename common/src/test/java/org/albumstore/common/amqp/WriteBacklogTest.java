package org.albumstore.common.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WriteBacklogTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode queues(String json) throws IOException {
    return JSON.readTree(json.replace('\'', '"'));
  }

  @Test
  void sumsReadyAndUnacknowledgedOverThePartitionsAndLeavesTheDeadLettersOut() throws Exception {
    JsonNode all =
        queues(
            "[{'name':'w','messages_ready':10,'messages_unacknowledged':5},"
                + "{'name':'w.1','messages_ready':7,'messages_unacknowledged':0},"
                + "{'name':'w.2','messages_ready':0,'messages_unacknowledged':3},"
                + "{'name':'w.dlq','messages_ready':1000,'messages_unacknowledged':0},"
                + "{'name':'w.1.dlq','messages_ready':1000,'messages_unacknowledged':0},"
                + "{'name':'other','messages_ready':1000,'messages_unacknowledged':1000},"
                + "{'name':'w.x','messages_ready':1000,'messages_unacknowledged':1000}]");
    assertThat(WriteBacklog.sum(all, "w", 3)).isEqualTo(25);
  }

  @Test
  void aPartitionLeftPastPCountsSinceConsumersDrainIt() throws Exception {
    JsonNode all =
        queues(
            "[{'name':'w','messages_ready':1,'messages_unacknowledged':0},"
                + "{'name':'w.3','messages_ready':4,'messages_unacknowledged':2}]");
    assertThat(WriteBacklog.sum(all, "w", 1)).isEqualTo(7);
  }

  @Test
  void aQueueWithoutFiguresYetCountsZero() throws Exception {
    assertThat(WriteBacklog.sum(queues("[{'name':'w'}]"), "w", 1)).isZero();
  }

  @Test
  void aMissingPartitionIsAnErrorNotAnEmptyBacklog() throws Exception {
    JsonNode all = queues("[{'name':'w','messages_ready':1,'messages_unacknowledged':0}]");
    assertThatThrownBy(() -> WriteBacklog.sum(all, "w", 2))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("queue w.1 not found");
    assertThatThrownBy(() -> WriteBacklog.sum(all, "writes", 1))
        .hasMessageContaining("queue writes not found");
  }

  @Test
  void readsTheVhostsQueuesWithTheColumnsOnly() throws Exception {
    AtomicReference<String> asked = new AtomicReference<>();
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body =
        "[{\"name\":\"a b\",\"messages_ready\":2,\"messages_unacknowledged\":1}]"
            .getBytes(StandardCharsets.UTF_8);
    http.createContext(
        "/",
        ex -> {
          asked.set(ex.getRequestURI().getRawPath() + "?" + ex.getRequestURI().getRawQuery());
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    http.start();
    try {
      String base = "http://127.0.0.1:" + http.getAddress().getPort();
      ManagementApi api = new ManagementApi(base, "/", "guest", "guest");
      assertThat(new WriteBacklog(api, "a b", 1).read()).isEqualTo(3);
      assertThat(asked.get())
          .isEqualTo("/api/queues/%2F?columns=name,messages_ready,messages_unacknowledged");
    } finally {
      http.stop(0);
    }
  }
}
