package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.server.internal.web.NoopServlet;
import org.junit.jupiter.api.Test;

/**
 * The do-nothing endpoint of bench/ exists only when {@code ALBUMSTORE_BENCH_ENDPOINTS=true}: off,
 * its path is an unknown path like any other; on, it answers 200 with an album-shaped body on every
 * path below it and publishes nothing.
 */
class BenchEndpointIT {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void offByDefault() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.benchOff");
    try (AlbumStoreServer server = start(amqp, null)) {
      HttpResponse<String> r = send("GET", server.baseUrl() + "/bench/noop");
      assertThat(r.statusCode()).isEqualTo(404);
      assertThat(r.body()).contains("unknown path");
    } finally {
      TestServices.deleteTopology(amqp);
    }
  }

  @Test
  void onAnswersEveryPathBelowWithoutPublishing() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.benchOn");
    try (AlbumStoreServer server = start(amqp, "true")) {
      for (String path :
          new String[] {"/bench/noop", "/bench/noop/albums", "/bench/noop/review/like/x"}) {
        for (String method : new String[] {"GET", "POST"}) {
          HttpResponse<String> r = send(method, server.baseUrl() + path);
          assertThat(r.statusCode()).as(method + " " + path).isEqualTo(200);
          // A UUID as the real endpoint gives: the load client keeps it as it keeps real IDs.
          assertThat(r.body()).contains("\"albumID\":\"" + NoopServlet.ALBUM_ID + "\"");
          assertThat(UUID.fromString(NoopServlet.ALBUM_ID)).hasToString(NoopServlet.ALBUM_ID);
        }
      }
      assertThat(TestServices.messageCount(amqp, amqp.queue())).isZero();
    } finally {
      TestServices.deleteTopology(amqp);
    }
  }

  private static AlbumStoreServer start(AmqpSettings amqp, String bench) {
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    if (bench != null) {
      env.put(ServerSettings.BENCH_ENDPOINTS.variable(), bench);
    }
    return AlbumStoreServer.start(Env.system().withOverrides(env));
  }

  private HttpResponse<String> send(String method, String url) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    b = "POST".equals(method) ? b.POST(HttpRequest.BodyPublishers.ofString("x")) : b.GET();
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
