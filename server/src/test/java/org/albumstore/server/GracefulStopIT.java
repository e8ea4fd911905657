package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.Test;

/**
 * What a load balancer needs from a stop: told to stop, the server reports itself not ready on
 * {@code /health} at once (503, DRAINING) while it still serves writes, alive on {@code
 * /health/live}, and only after the drain delay does it stop.
 */
class GracefulStopIT {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aDrainingServerFailsItsReadinessCheckButStillAcknowledgesWrites() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.drain");
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    try (AlbumStoreServer server = AlbumStoreServer.start(Env.system().withOverrides(env))) {
      assertThat(get(server.baseUrl() + "/health").statusCode()).isEqualTo(200);
      HttpResponse<String> live = get(server.baseUrl() + "/health/live");
      assertThat(live.statusCode()).isEqualTo(200);
      assertThat(live.body()).contains("\"status\":\"UP\"");

      Duration delay = Duration.ofSeconds(3);
      long t0 = System.nanoTime();
      CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> server.drainAndClose(delay));

      HttpResponse<String> health = get(server.baseUrl() + "/health");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      while (health.statusCode() == 200 && System.nanoTime() < deadline) {
        Thread.sleep(20);
        health = get(server.baseUrl() + "/health");
      }
      assertThat(health.statusCode()).as("readiness while draining").isEqualTo(503);
      assertThat(health.body()).contains("\"status\":\"DRAINING\"");
      assertThat(get(server.baseUrl() + "/health/live").statusCode())
          .as("liveness while draining")
          .isEqualTo(200);

      HttpResponse<String> vote =
          http.send(
              HttpRequest.newBuilder(URI.create(server.baseUrl() + "/review/like/42"))
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(vote.statusCode()).as("a write while draining: " + vote.body()).isEqualTo(200);
      assertThat(stop).as("still serving within the drain delay").isNotDone();

      stop.get(30, TimeUnit.SECONDS);
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(delay);
      assertThat(TestServices.messageCount(amqp, amqp.queue())).isEqualTo(1);
    } finally {
      TestServices.deleteTopology(amqp);
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
