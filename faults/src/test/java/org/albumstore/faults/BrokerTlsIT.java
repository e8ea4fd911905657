package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.tls.TlsFailures;
import org.albumstore.embedded.cluster.RabbitNode;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.TestCa;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.faults.harness.ClientProcess;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.ServerProcess;
import org.albumstore.faults.harness.Summary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code amqps://} and the management API's {@code https://} end to end, as on Amazon MQ: a
 * RabbitMQ node of its own with TLS-only listeners (no plain AMQP port at all), its certificate
 * from a throwaway CA ({@link TestCa}); the server, the consumer and the load client each run as
 * {@code java -jar} with that CA as their JVM's only trusted root ({@code
 * -Djavax.net.ssl.trustStore}), connecting to {@code localhost}, the name in the certificate, with
 * certificate and host name verified. A load run must end verified; a CA the JVM does not trust and
 * a certificate for another host must each be refused with one line that says which.
 *
 * <p>Needs an installed RabbitMQ ({@code rabbitmq-server}); without one it skips with one line, and
 * fails when {@code CI=true}. The machine's own node is never touched ({@link RabbitNode}).
 */
class BrokerTlsIT {
  private static final Logger log = LoggerFactory.getLogger(BrokerTlsIT.class);

  private static Path dir;
  private static TestCa ca;
  private static TestCa stranger;
  private static RabbitNode node;
  private static Path certFile;
  private static Path keyFile;
  private static int amqpsPort;
  private static int httpsPort;

  @BeforeAll
  static void startTlsNode() throws Exception {
    requireRabbitMq();
    String id = UUID.randomUUID().toString().substring(0, 8);
    dir = Paths.outputDir().resolve("broker-tls-" + id);
    ca = TestCa.create(dir.resolve("pki"), "albumstore");
    stranger = TestCa.create(dir.resolve("pki"), "stranger");
    certFile = dir.resolve("node-cert.pem");
    keyFile = dir.resolve("node-key.pem");
    ca.issue("localhost", "DNS:localhost", "IP:127.0.0.1").copyTo(certFile, keyFile);
    amqpsPort = RabbitNode.freePort();
    httpsPort = RabbitNode.freePort();
    node =
        RabbitNode.builder("albumstore-tls-" + id, dir.resolve("node"))
            .plugins("rabbitmq_management")
            .config(
                "listeners.tcp = none",
                "listeners.ssl.1 = 127.0.0.1:" + amqpsPort,
                "ssl_options.cacertfile = " + ca.certificatePem(),
                "ssl_options.certfile = " + certFile,
                "ssl_options.keyfile = " + keyFile,
                "ssl_options.versions.1 = tlsv1.3",
                "ssl_options.versions.2 = tlsv1.2",
                "management.ssl.ip = 127.0.0.1",
                "management.ssl.port = " + httpsPort,
                "management.ssl.cacertfile = " + ca.certificatePem(),
                "management.ssl.certfile = " + certFile,
                "management.ssl.keyfile = " + keyFile)
            .start();
  }

  @AfterAll
  static void stopTlsNode() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  /** The one-line skip (or, on CI, failure) for a machine without RabbitMQ. */
  private static void requireRabbitMq() {
    ExternalTools.system()
        .requireThat(
            RabbitNode.installation().isPresent(),
            "an installed RabbitMQ (rabbitmq-server and rabbitmqctl in $RABBITMQ_HOME/sbin,"
                + " /usr/lib/rabbitmq/bin or on PATH; apt-get install -y rabbitmq-server)",
            "BrokerTlsIT's TLS-only RabbitMQ node");
  }

  private static AmqpSettings amqps(String queue) {
    return new AmqpSettings(
        "amqps://guest:guest@localhost:" + amqpsPort + "/%2F",
        queue + "." + UUID.randomUUID().toString().substring(0, 8),
        AmqpSettings.QueueType.CLASSIC);
  }

  @Test
  void serverConsumerAndClientRunAVerifiedLoadOverVerifiedTls() throws Exception {
    AmqpSettings amqp = amqps("tls.e2e");
    DatabaseSettings db = TestServices.database();
    try (ConsumerProcess consumer =
            ConsumerProcess.launch("tls-consumer", ca.trustStoreJvmArgs(), amqp, db, Map.of());
        ServerProcess server =
            ServerProcess.start("tls-server", serverEnv(amqp, db), ca.trustStoreJvmArgs())) {
      consumer.awaitLogLine("consuming " + amqp.queue() + " with", Duration.ofSeconds(60));
      // The node has no plain listener, so every connection is TLS; its own view says so too.
      // The server's and the consumer's connections at least.
      List<String> tls =
          node.ctl("list_connections", "ssl", "--quiet", "--no-table-headers").lines().toList();
      assertThat(tls).hasSizeGreaterThanOrEqualTo(2).containsOnly("true");

      Path runDir = dir.resolve("client-run");
      ClientProcess run =
          client(
              "tls-client",
              ca,
              "--url",
              server.baseUrl(),
              "--queue",
              amqp.queue(),
              "--amqp-uri",
              amqp.uri(),
              "--rmq-api",
              "https://localhost:" + httpsPort,
              "--rmq-user",
              "guest",
              "--rmq-password",
              "guest",
              "--consumer-metrics",
              "none",
              "--threads",
              "4",
              "--iterations",
              "10",
              "--drain-timeout",
              "60",
              "--no-progress",
              "--out",
              runDir.toString());
      assertThat(run.exitCode()).as(run.output()).isZero();
      assertThat(run.output())
          .contains("queue depth: read from the management-api")
          .contains("verified: 40 albums, 0 mismatches");

      // The same client trusting another CA: its load (plain HTTP to the server) still runs, and
      // it says in one line per source why it cannot watch the queue.
      ClientProcess untrusting =
          client(
              "tls-client-untrusting",
              stranger,
              "--url",
              server.baseUrl(),
              "--queue",
              amqp.queue(),
              "--amqp-uri",
              amqp.uri(),
              "--rmq-api",
              "https://localhost:" + httpsPort,
              "--consumer-metrics",
              "none",
              "--threads",
              "1",
              "--iterations",
              "2",
              "--drain-timeout",
              "5",
              "--no-progress",
              "--out",
              dir.resolve("client-run-untrusting").toString());
      assertThat(onlyLineWith(untrusting.output(), "queue depth: management-api not available"))
          .contains("(TLS: the server's certificate is not signed by a trusted CA");
      assertThat(onlyLineWith(untrusting.output(), "queue depth: amqp not available"))
          .contains("(TLS: the server's certificate is not signed by a trusted CA");
    }
    Summary.record(
        "security (broker TLS): amqps:// and https:// management against RabbitMQ "
            + node.nodeName()
            + " with a test CA, host name verified: load of 40 albums verified");
  }

  @Test
  void aCaTheJvmDoesNotTrustIsRefusedWithOneLine() throws Exception {
    assertRefused(
        stranger, "stranger", "TLS: the server's certificate is not signed by a trusted CA");
  }

  @Test
  void aCertificateForAnotherHostIsRefusedWithOneLine() throws Exception {
    try {
      rotate(ca.issue("other.example", "DNS:other.example"));
      assertRefused(
          ca,
          "otherhost",
          "TLS: the server's certificate is not for the host name used (No subject alternative DNS"
              + " name matching localhost found.)");
    } finally {
      rotate(ca.issue("localhost", "DNS:localhost", "IP:127.0.0.1"));
    }
  }

  /**
   * The node's certificate replaced under the file names its configuration gives; Erlang's TLS
   * caches PEM files, so the cache is cleared for new connections to read them (RabbitMQ's
   * documented way to rotate certificates without a restart).
   */
  private static void rotate(TestCa.Issued issued) throws Exception {
    issued.copyTo(certFile, keyFile);
    node.ctl("eval", "ssl:clear_pem_cache().");
  }

  /**
   * Starts the server and the consumer trusting {@code trusted} only and checks what each tells its
   * user: the server keeps running (writes get 503) and logs the refusal once, the consumer exits
   * with it; one line each, no stack trace. The management API refuses the same way.
   */
  private static void assertRefused(TestCa trusted, String name, String expected) throws Exception {
    AmqpSettings amqp = amqps("tls." + name);
    DatabaseSettings db = TestServices.database();
    try (ServerProcess server =
        ServerProcess.start(
            "tls-" + name + "-server", serverEnv(amqp, db), trusted.trustStoreJvmArgs())) {
      String line = onlyLineWith(server.output(), "not reachable");
      assertThat(line)
          .contains(
              "Broker amqps://guest:***@localhost:"
                  + amqpsPort
                  + "/%2F not reachable ("
                  + expected);
      assertThat(server.output()).doesNotContain("\tat ");
    }
    try (ConsumerProcess consumer =
        ConsumerProcess.launch(
            "tls-" + name + "-consumer", trusted.trustStoreJvmArgs(), amqp, db, Map.of())) {
      assertThat(consumer.awaitExit(Duration.ofSeconds(60))).as(consumer.output()).isNotZero();
      String line = onlyLineWith(consumer.output(), "cannot start");
      assertThat(line)
          .contains(
              "cannot start: broker amqps://guest:***@localhost:"
                  + amqpsPort
                  + "/%2F: "
                  + expected);
      assertThat(consumer.output()).doesNotContain("\tat ");
    }
    // The management API over https:// with the JDK's HTTP client, as the client's queue sampler
    // reads it: refused for the same reason.
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(trusting(trusted))
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    URI overview = URI.create("https://localhost:" + httpsPort + "/api/overview");
    Throwable refused =
        catchThrowable(
            () ->
                http.send(
                    HttpRequest.newBuilder(overview).build(),
                    HttpResponse.BodyHandlers.discarding()));
    assertThat(refused).as("GET " + overview).isNotNull();
    assertThat(TlsFailures.describe(refused)).startsWith(expected);
    Summary.record("security (broker TLS): refused in one line: " + expected);
  }

  private static SSLContext trusting(TestCa trusted) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(trusted.trustStore())) {
      ks.load(in, TestCa.PASSWORD.toCharArray());
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, tmf.getTrustManagers(), null);
    return c;
  }

  private static Map<String, String> serverEnv(AmqpSettings amqp, DatabaseSettings db) {
    return new HashMap<>(TestServices.overrides(amqp, db));
  }

  private static String onlyLineWith(String output, String text) {
    List<String> lines = output.lines().filter(l -> l.contains(text)).toList();
    assertThat(lines).as(output).hasSize(1);
    return lines.get(0);
  }

  /** {@code java -jar client.jar} trusting {@code trusted} only, as a user runs it. */
  private static ClientProcess client(String name, TestCa trusted, String... args)
      throws Exception {
    return ClientProcess.run(name, Duration.ofMinutes(5), trusted.trustStoreJvmArgs(), args);
  }
}
