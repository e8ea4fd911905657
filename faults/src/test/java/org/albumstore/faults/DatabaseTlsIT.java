package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.service.EmbeddedPostgres;
import org.albumstore.embedded.testing.TestCa;
import org.albumstore.embedded.testing.TestServices;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.ApiClient.Reply;
import org.albumstore.faults.harness.Bodies;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Multipart;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL with {@code sslmode=verify-full}, as RDS should be reached: an embedded PostgreSQL of
 * this test's own (its own data directory and port) with {@code ssl=on} and a certificate from a
 * throwaway CA ({@link TestCa}), reached as {@code localhost}, the name in the certificate, with
 * that CA as {@code sslrootcert}. The server's reads and the consumer's writes (and its schema)
 * must go over verified TLS; a CA not named by {@code sslrootcert} and a certificate for another
 * host must each stop the consumer's start with one line that says which.
 *
 * <p>Runs everywhere the embedded PostgreSQL runs (no installed PostgreSQL needed); the broker is
 * the shared test broker.
 */
class DatabaseTlsIT {
  private static TestCa ca;
  private static TestCa stranger;
  private static Path certFile;
  private static Path keyFile;
  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void startTlsPostgres() throws Exception {
    Path dir =
        Paths.outputDir().resolve("database-tls-" + UUID.randomUUID().toString().substring(0, 8));
    ca = TestCa.create(dir, "albumstore");
    stranger = TestCa.create(dir, "stranger");
    certFile = dir.resolve("server-cert.pem");
    keyFile = dir.resolve("server-key.pem");
    ca.issue("localhost", "DNS:localhost", "IP:127.0.0.1").copyTo(certFile, keyFile);
    postgres =
        EmbeddedPostgres.start(
            Map.of(
                "ssl", "on",
                "ssl_cert_file", certFile.toString(),
                "ssl_key_file", keyFile.toString()));
  }

  @AfterAll
  static void stopTlsPostgres() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  /** What a user writes for RDS, with this test's CA file as the RDS bundle. */
  private static DatabaseSettings verifyFull(TestCa trusted) {
    return new DatabaseSettings(
        "jdbc:postgresql://localhost:"
            + postgres.port()
            + "/"
            + EmbeddedPostgres.DATABASE
            + "?sslmode=verify-full&sslrootcert="
            + trusted.certificatePem(),
        EmbeddedPostgres.USER,
        "");
  }

  @Test
  void theServersReadsAndTheConsumersWritesGoOverVerifiedTls() throws Exception {
    try (Stack stack = Stack.create("db-tls", verifyFull(ca))) {
      // --init-schema: the schema itself goes over the verified connection.
      stack.startConsumer("--init-schema", "true");
      stack.startServer(Map.of());
      List<String> ids = new ArrayList<>();
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 2, Timeout.ofSeconds(15))) {
        for (int i = 0; i < 5; i++) {
          Reply r =
              api.postAlbum(
                  stack.runId + "-a" + i,
                  Multipart.album(
                      Multipart.IMAGE, Multipart.jsonProfile("TLS", "Album " + i, "1977")));
          assertThat(r.status()).as(r.body()).isEqualTo(200);
          String id = Bodies.field(r.body(), "albumID").asText();
          ids.add(id);
          assertThat(api.vote("like", id, stack.runId + "-l" + i).status()).isEqualTo(200);
        }
        for (String id : ids) {
          assertThat(await(api, "/review/" + id, "{\"likes\":\"1\",\"dislikes\":\"0\"}").status())
              .isEqualTo(200);
          assertThat(await(api, "/albums/" + id, null).body()).contains("\"title\":\"Album ");
        }
      }
      Map<String, List<Boolean>> ssl = sslByApplication();
      assertThat(ssl).containsKeys("albumstore-consumer", "albumstore-server-reads");
      assertThat(ssl.values()).allSatisfy(flags -> assertThat(flags).containsOnly(true));
    }
    Summary.record(
        "security (database TLS): sslmode=verify-full with a test CA: schema, 5 albums and likes"
            + " written by the consumer and read by the server, every connection encrypted");
  }

  @Test
  void aCaNotNamedBySslrootcertIsRefusedWithOneLine() throws Exception {
    assertConsumerRefused(
        verifyFull(stranger), "TLS: the server's certificate is not signed by a trusted CA");
  }

  @Test
  void aCertificateForAnotherHostIsRefusedWithOneLine() throws Exception {
    Path otherCert = certFile.resolveSibling("other-cert.pem");
    Path otherKey = certFile.resolveSibling("other-key.pem");
    ca.issue("other.example", "DNS:other.example").copyTo(otherCert, otherKey);
    try {
      rotate(new TestCa.Issued(otherCert, otherKey), false);
      assertConsumerRefused(
          verifyFull(ca),
          "TLS: the server's certificate is not for the host name used (The hostname localhost"
              + " could not be verified");
    } finally {
      rotate(ca.issue("localhost", "DNS:localhost", "IP:127.0.0.1"), true);
    }
  }

  /**
   * Puts {@code issued} under the configured file names and reloads the configuration (PostgreSQL
   * reads its certificate anew on reload), then waits until a new verifying connection sees it:
   * accepted exactly when the certificate names localhost.
   */
  private static void rotate(TestCa.Issued issued, boolean namesLocalhost) throws Exception {
    issued.copyTo(certFile, keyFile);
    try (Connection c = admin();
        Statement st = c.createStatement()) {
      st.execute("SELECT pg_reload_conf()");
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (verifiedConnectionSucceeds() != namesLocalhost && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(verifiedConnectionSucceeds()).as("certificate reloaded").isEqualTo(namesLocalhost);
  }

  private static boolean verifiedConnectionSucceeds() {
    DatabaseSettings s = verifyFull(ca);
    return catchThrowable(
            () -> DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password()).close())
        == null;
  }

  private static void assertConsumerRefused(DatabaseSettings db, String expected) throws Exception {
    try (ConsumerProcess consumer =
        ConsumerProcess.launch(
            "db-tls-refused-consumer",
            TestServices.amqp("faults.db-tls-refused"),
            db,
            Map.of(),
            "--init-schema",
            "true")) {
      assertThat(consumer.awaitExit(Duration.ofSeconds(60))).as(consumer.output()).isNotZero();
      List<String> lines =
          consumer.output().lines().filter(l -> l.contains("cannot start")).toList();
      assertThat(lines).as(consumer.output()).hasSize(1);
      assertThat(lines.get(0)).contains("cannot start: database " + db.jdbcUrl() + ": " + expected);
      assertThat(consumer.output()).doesNotContain("\tat ");
    }
    Summary.record("security (database TLS): refused in one line: " + expected);
  }

  /** Every connection of the application's pools, by pool name: is it encrypted? */
  private static Map<String, List<Boolean>> sslByApplication() throws SQLException {
    Map<String, List<Boolean>> m = new HashMap<>();
    try (Connection c = admin();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT a.application_name, s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a"
                    + " USING (pid) WHERE a.application_name LIKE 'albumstore-%'")) {
      while (rs.next()) {
        m.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getBoolean(2));
      }
    }
    return m;
  }

  private static Connection admin() throws SQLException {
    DatabaseSettings s = postgres.settings();
    return DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
  }

  /** GETs {@code path} until it answers 200 (with exactly {@code body}, if given); 60 s at most. */
  private static Reply await(ApiClient api, String path, String body) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      Reply r = api.get(path);
      boolean done = r.status() == 200 && (body == null || body.equals(r.body()));
      if (done || System.nanoTime() > deadline) {
        assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
        return r;
      }
      Thread.sleep(100);
    }
  }
}
