package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.ApiClient.Reply;
import org.albumstore.faults.harness.Bodies;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Multipart;
import org.albumstore.faults.harness.ServerProcess;
import org.albumstore.faults.harness.Summary;
import org.albumstore.server.AlbumStoreServer;
import org.albumstore.server.ServerSettings;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Security basics: credentials come only from configuration (environment variables here) and never
 * appear in a log line or a response body; error bodies show no internals (exception names, stack
 * frames, SQL, the container's name), even when the broker and the database are both down.
 */
class SecretsIT {
  private static final int MAX_IMAGE = 64 * 1024;
  private final String amqpSecret = "AmqpS3cret" + UUID.randomUUID().toString().substring(0, 8);
  private final String dbSecret = "DbS3cret" + UUID.randomUUID().toString().substring(0, 8);

  @Test
  void errorBodiesCarryNoInternalsAndNoCredentialsEvenWhenEverythingIsDown() throws Exception {
    Map<String, String> env = unreachableServices();
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    env.put(ServerSettings.MAX_IMAGE_BYTES.variable(), Integer.toString(MAX_IMAGE));
    List<String> seen = new ArrayList<>();
    try (AlbumStoreServer server = AlbumStoreServer.start(Env.system().withOverrides(env));
        ApiClient api = new ApiClient(server.baseUrl(), 4, Timeout.ofSeconds(30))) {
      Map<String, Reply> replies = new LinkedHashMap<>();
      replies.put("write, broker down", api.vote("like", "sec1", "k1"));
      replies.put(
          "album, broker down",
          api.postAlbum(
              null, Multipart.album(Multipart.IMAGE, Multipart.jsonProfile("a", "t", "1"))));
      replies.put("read, database down", api.get("/review/sec1"));
      replies.put("health", api.get("/health"));
      replies.put("unknown path", api.get("/nothing/here"));
      replies.put("wrong method", api.get("/review/like/sec1"));
      replies.put(
          "bad id",
          api.get("/albums/" + URLEncoder.encode("1' OR '1'='1", StandardCharsets.UTF_8)));
      replies.put(
          "bad profile", api.postAlbum(null, Multipart.album(Multipart.IMAGE, "{\"artist\":")));
      replies.put(
          "too large", api.postAlbum(null, Multipart.album(Multipart.image(MAX_IMAGE + 1), "{}")));
      for (Map.Entry<String, Reply> e : replies.entrySet()) {
        Reply r = e.getValue();
        seen.add(e.getKey() + " " + r.status());
        assertThat(r.status()).as(e.getKey()).isGreaterThanOrEqualTo(400);
        assertThat(Bodies.internalDetail(r.body(), amqpSecret, dbSecret))
            .as(e.getKey() + ": " + r.body())
            .isNull();
        if (!e.getKey().equals("health")) {
          assertThat(Bodies.hasJsonMsg(r.body())).as(e.getKey() + ": " + r.body()).isTrue();
        }
      }
      assertThat(replies.get("write, broker down").status()).isEqualTo(503);
      assertThat(replies.get("write, broker down").retryAfter()).isNotNull();
      assertThat(replies.get("read, database down").status()).isEqualTo(503);
    }
    Summary.record(
        "security (error bodies, broker and database down): "
            + seen
            + "; no internals, no credentials");
  }

  @Test
  void credentialsComeFromTheEnvironmentAndNeverReachTheLogs() throws Exception {
    Map<String, String> env = unreachableServices();
    String serverLog;
    try (ServerProcess server = ServerProcess.start("sec-server", env);
        ApiClient api = new ApiClient(server.baseUrl(), 2, Timeout.ofSeconds(30))) {
      assertThat(api.vote("like", "sec2", null).status()).isEqualTo(503);
      server.stop();
      serverLog = server.output();
    }
    AmqpSettings amqp = AmqpSettings.from(Env.of(env)).withQueue("faults.sec." + UUID.randomUUID());
    DatabaseSettings db = DatabaseSettings.from(Env.of(env));
    ConsumerProcess consumer = ConsumerProcess.launch("sec-consumer", amqp, db, Map.of());
    int consumerExit = consumer.awaitExit(Duration.ofSeconds(60));
    String consumerLog = consumer.output();

    String redacted = "amqp://albumstore:***@127.0.0.1:";
    assertThat(serverLog).contains(redacted).doesNotContain(amqpSecret).doesNotContain(dbSecret);
    assertThat(consumerLog).contains(redacted).doesNotContain(amqpSecret).doesNotContain(dbSecret);
    assertThat(consumerExit).as("consumer without a broker: exit status").isNotZero();
    Summary.record(
        "security (credentials): server and consumer configured by environment with recognisable"
            + " passwords; logs show the redacted URI, neither password (consumer exit "
            + consumerExit
            + " without a broker)");
  }

  /** A broker URI and a database URL with recognisable passwords, on ports nothing listens on. */
  private Map<String, String> unreachableServices() throws IOException {
    Map<String, String> env = new HashMap<>();
    env.put(
        CommonSettings.AMQP_URI.variable(),
        "amqp://albumstore:" + amqpSecret + "@127.0.0.1:" + closedPort() + "/%2F");
    env.put(CommonSettings.QUEUE.variable(), "faults.sec." + UUID.randomUUID());
    env.put(
        CommonSettings.JDBC_URL.variable(),
        "jdbc:postgresql://127.0.0.1:" + closedPort() + "/albumstore");
    env.put(CommonSettings.DB_USER.variable(), "albumstore");
    env.put(CommonSettings.DB_PASSWORD.variable(), dbSecret);
    return env;
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
