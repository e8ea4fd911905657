package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.server.internal.metrics.MetricsPort;
import org.albumstore.server.internal.web.ErrorMessages;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;

/**
 * The packaged WAR with a management port as deploy/README.md tells an operator to set it up: a
 * second connector on loopback (in server.xml there) and {@code ALBUMSTORE_METRICS_PORT} naming it.
 * The metrics answer only there; the API connector answers {@code /metrics} with the JSON 404 of an
 * unknown path and serves the API as before.
 */
class WarMetricsPortIT {
  private static final Path WAR = Path.of("target", "albumstore.war");

  @Test
  void theWarServesItsMetricsOnlyOnTheConnectorNamedByTheMetricsPort() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.war-metrics");
    Path base = Files.createTempDirectory("albumstore-war-metrics-it-");
    Tomcat tomcat = new Tomcat();
    try {
      tomcat.setBaseDir(base.toString());
      Connector api = new Connector("HTTP/1.1");
      api.setPort(0);
      tomcat.setConnector(api);
      Connector management = new Connector("HTTP/1.1");
      management.setPort(0);
      management.setProperty("address", "127.0.0.1");
      tomcat.getService().addConnector(management);
      tomcat.getHost().setAppBase(base.resolve("webapps").toString());
      Files.createDirectories(base.resolve("webapps"));
      Context ctx = tomcat.addWebapp("/albumstore", WAR.toAbsolutePath().toString());
      // As WarDeploymentIT: context parameters stand in for Tomcat's environment.
      TestServices.overrides(amqp, TestServices.database()).forEach(ctx::addParameter);
      tomcat.init(); // binds both connectors, so the free port is known before the application
      ctx.addParameter(MetricsPort.PORT.variable(), Integer.toString(management.getLocalPort()));
      tomcat.start();
      assertThat(ctx.getState()).isEqualTo(LifecycleState.STARTED);

      Api onApi = new Api("http://127.0.0.1:" + api.getLocalPort() + "/albumstore");
      Api.Reply hidden = onApi.get("/metrics");
      assertThat(hidden.status()).isEqualTo(404);
      assertThat(hidden.json()).containsEntry("msg", ErrorMessages.UNKNOWN_PATH);
      assertThat(onApi.get("/health").status()).isEqualTo(200);

      Api onManagement = new Api("http://127.0.0.1:" + management.getLocalPort() + "/albumstore");
      Api.Reply served = onManagement.get("/metrics");
      assertThat(served.status()).isEqualTo(200);
      assertThat(served.body()).contains("albumstore_publish_channels");
    } finally {
      tomcat.stop();
      tomcat.destroy();
      TestServices.deleteTopology(amqp);
      try (Stream<Path> paths = Files.walk(base)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
