package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.Scrapes;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.server.internal.metrics.MetricsPort;
import org.albumstore.server.internal.web.ErrorMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where {@code GET /metrics} answers: with the API by default (what the one-command stack and the
 * client's tier table use), and only on the management port when one is set, the API port then
 * answering the same 404 as for any unknown path.
 */
class MetricsPortIT {
  private AmqpSettings amqp;
  private AlbumStoreServer server;

  private AlbumStoreServer start(Map<String, String> settings) {
    amqp = TestServices.amqp("server.metrics-port");
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    env.putAll(settings);
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    return server;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    TestServices.deleteTopology(amqp);
  }

  @Test
  void byDefaultTheMetricsAreServedOnTheApiPort() throws Exception {
    start(Map.of());
    assertThat(server.metricsUrl()).isEqualTo(server.baseUrl() + "/metrics");
    Api.Reply r = new Api(server.baseUrl()).get("/metrics");
    assertThat(r.status()).isEqualTo(200);
    assertThat(Scrapes.has(r.body(), "albumstore_publish_channels")).isTrue();
  }

  @Test
  void withAManagementPortOnlyThatPortServesThemAndTheApiPortAnswers404() throws Exception {
    start(Map.of(MetricsPort.PORT.variable(), "0"));
    URI metrics = URI.create(server.metricsUrl());
    assertThat(metrics.getHost()).as("bound to loopback by default").isEqualTo("127.0.0.1");
    assertThat(metrics.getPort()).isPositive().isNotEqualTo(server.port());

    Api onApiPort = new Api(server.baseUrl());
    Api.Reply hidden = onApiPort.get("/metrics");
    assertThat(hidden.status()).isEqualTo(404);
    assertThat(hidden.json()).containsEntry("msg", ErrorMessages.UNKNOWN_PATH);
    assertThat(onApiPort.get("/health").status()).as("the API still answers").isEqualTo(200);

    String managementBase = server.metricsUrl().substring(0, server.metricsUrl().lastIndexOf('/'));
    Api.Reply served = new Api(managementBase).get("/metrics");
    assertThat(served.status()).isEqualTo(200);
    assertThat(served.header("Content-Type")).startsWith("text/plain");
    assertThat(Scrapes.has(served.body(), "albumstore_publish_channels")).isTrue();
    // The API's own requests are still counted: the figures are the same, only moved.
    assertThat(
            Scrapes.sum(
                served.body(),
                "http_server_requests_seconds_count",
                Map.of("uri", "/health", "status", "200")))
        .isEqualTo(1);
  }
}
