package org.albumstore.consumer.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class WriteBacklogMainTest {
  @Test
  void printsThePutMetricDataInputOnOneLine() {
    assertThat(WriteBacklogMain.putMetricData("albumstore \"a\"", 1234))
        .isEqualTo(
            "{\"Namespace\":\"AlbumStore\",\"MetricData\":[{\"MetricName\":\"WriteBacklog\","
                + "\"Dimensions\":[{\"Name\":\"StackName\",\"Value\":\"albumstore \\\"a\\\"\"}],"
                + "\"Value\":1234,\"Unit\":\"Count\"}]}");
  }

  private static int run(StringWriter out, StringWriter err, String... args) {
    CommandLine cmd = new CommandLine(new WriteBacklogMain());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }

  @Test
  void readsTheBacklogThroughTheManagementApi() throws Exception {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body =
        ("[{\"name\":\"albumstore.writes\",\"messages_ready\":40,\"messages_unacknowledged\":2},"
                + "{\"name\":\"albumstore.writes.dlq\",\"messages_ready\":9}]")
            .getBytes(StandardCharsets.UTF_8);
    http.createContext(
        "/",
        ex -> {
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    http.start();
    try {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code =
          run(
              out,
              err,
              "--stack",
              "s",
              "--rmq-api",
              "http://127.0.0.1:" + http.getAddress().getPort(),
              "--queue",
              "albumstore.writes");
      assertThat(code).as(err.toString()).isZero();
      assertThat(out.toString()).contains("\"Value\":42,").endsWith("}" + System.lineSeparator());
    } finally {
      http.stop(0);
    }
  }

  @Test
  void aBrokerThatCannotBeReadExitsNonZeroAndPrintsNoFigure() throws Exception {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext(
        "/",
        ex -> {
          ex.sendResponseHeaders(401, -1);
          ex.close();
        });
    http.start();
    try {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      String api = "http://127.0.0.1:" + http.getAddress().getPort();
      assertThat(run(out, err, "--stack", "s", "--rmq-api", api)).isEqualTo(1);
      assertThat(out.toString()).isEmpty();
      assertThat(err.toString())
          .contains("cannot read the backlog from " + api)
          .contains("HTTP 401");
    } finally {
      http.stop(0);
    }
    StringWriter err = new StringWriter();
    assertThat(run(new StringWriter(), err)).isEqualTo(2);
    assertThat(err.toString()).contains("--stack");
  }
}
