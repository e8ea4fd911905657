package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.embedded.testing.TestServices;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;

/**
 * The packaged WAR, deployed the way a stock Tomcat deploys it (web.xml, the container's default
 * servlet and JSP mappings present), wires the same application: this checks web.xml, the listener
 * and the libraries in WEB-INF/lib, not just the classes.
 */
class WarDeploymentIT {
  private static final Path WAR = Path.of("target", "albumstore.war");

  @Test
  void theWarHoldsOneLoggingBindingAndNoContainerClasses() throws Exception {
    try (ZipFile zip = new ZipFile(WAR.toFile())) {
      var libs =
          zip.stream().map(e -> e.getName()).filter(n -> n.startsWith("WEB-INF/lib/")).toList();
      assertThat(libs).anyMatch(n -> n.contains("slf4j-jdk14"));
      assertThat(libs)
          .noneMatch(n -> n.contains("slf4j-simple"))
          .noneMatch(n -> n.contains("tomcat-"))
          .noneMatch(n -> n.contains("servlet-api"));
      assertThat(zip.getEntry("WEB-INF/web.xml")).isNotNull();
    }
  }

  @Test
  void theDeployedWarServesTheApiUnderAlbumstore() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.war");
    Path base = Files.createTempDirectory("albumstore-war-it-");
    Tomcat tomcat = new Tomcat();
    try {
      tomcat.setBaseDir(base.toString());
      Connector connector = new Connector("HTTP/1.1");
      connector.setPort(0);
      tomcat.setConnector(connector);
      tomcat.getHost().setAppBase(base.resolve("webapps").toString());
      Files.createDirectories(base.resolve("webapps"));
      Context ctx = tomcat.addWebapp("/albumstore", WAR.toAbsolutePath().toString());
      // A stock Tomcat reads ALBUMSTORE_* from the environment; a test cannot set those, and the
      // listener layers context parameters over the environment.
      TestServices.overrides(amqp, TestServices.database()).forEach(ctx::addParameter);
      tomcat.start();
      assertThat(ctx.getState()).isEqualTo(LifecycleState.STARTED);

      Api api = new Api("http://127.0.0.1:" + connector.getLocalPort() + "/albumstore");
      assertThat(api.get("/health").json()).containsEntry("status", "UP");
      assertThat(api.post("/review/like/war-1").status()).isEqualTo(200);
      assertThat(TestServices.messageCount(amqp, amqp.queue())).isEqualTo(1);

      Api.Reply unknown = api.get("/index.html");
      assertThat(unknown.status()).isEqualTo(404);
      assertThat(unknown.header("Content-Type")).startsWith("application/json");
      Api.Reply wrong = api.send("PUT", "/review/like/1", null, null, Map.of());
      assertThat(wrong.status()).isEqualTo(405);
      assertThat(wrong.json().get("msg")).isNotBlank();
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
