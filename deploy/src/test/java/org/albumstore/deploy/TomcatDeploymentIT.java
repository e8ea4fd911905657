package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.albumstore.client.ClientMain;
import org.albumstore.client.ClientResult;
import org.albumstore.client.RunSummary;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.consumer.AlbumStoreConsumer;
import org.albumstore.consumer.ConsumerCounters;
import org.albumstore.consumer.ConsumerSettings;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The deployment an operator does, end to end: {@code tomcat/install.sh} lays out a stock Tomcat
 * distribution from Maven Central with this folder's server.xml and setenv.sh, deploys the
 * reactor's WAR for it ({@code albumstore.war} on Tomcat 11 and 10.1, {@code albumstore-javax.war}
 * on Tomcat 9.0) and starts it; the consumer (in this JVM) applies what the installed server
 * publishes, and the load client's own verification proves that every acknowledged write was stored
 * exactly once. Then the upload limits of the installed connector: images up to the application's
 * 10 MiB limit pass even when sent as a part without a file name (which Tomcat counts against
 * maxPostSize), larger ones get the application's JSON 413. Finally {@code catalina.sh stop 30
 * -force} stops it.
 *
 * <p>Each Tomcat version gets a queue of its own; broker and database come from {@link
 * TestServices} (local, or embedded with {@code -Dalbumstore.test.embedded=true}).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class TomcatDeploymentIT {
  private static final Path DEPLOY_DIR = Path.of(property("albumstore.it.deployDir", "."));

  private static final Path WORK = Path.of(property("albumstore.it.workDir", "target"));

  private static final int THREADS = 8;
  private static final int ITERATIONS = 10;
  private static final int ALBUMS = THREADS * ITERATIONS;
  private static final int MIB = 1024 * 1024;
  private static final int IMAGE_LIMIT =
      10 * MIB; // the server's default ALBUMSTORE_MAX_IMAGE_BYTES

  private AmqpSettings amqp;
  private AlbumStoreConsumer consumer;
  private TomcatInstallation tomcat;

  private static String property(String name, String fallback) {
    return System.getProperty(name, fallback);
  }

  @BeforeAll
  static void theWarsAreBuilt() {
    Distributions.requireTheWars();
  }

  /** install.sh is a bash script that unpacks with tar and waits for the health URL with curl. */
  @BeforeAll
  static void theToolsOfInstallShAreInstalled() {
    ExternalTools tools = ExternalTools.of(Scripts.cleanEnvironment());
    for (String tool : List.of("bash", "tar", "curl")) {
      tools.require(tool, "the Tomcat installation by deploy/tomcat/install.sh");
    }
  }

  @ParameterizedTest(name = "Tomcat {0} with {1}")
  @MethodSource("org.albumstore.deploy.Distributions#versionsWithTheirWars")
  void installedTomcatServesTheLoadAndImagesUpToTheLimit(String version, Path war)
      throws Exception {
    Path tarball = Distributions.tarball(version);
    amqp = TestServices.declare(TestServices.amqp("deploy.tomcat-" + version));
    DatabaseSettings db = TestServices.database();
    Path envFile = writeEnvFile(WORK.resolve("it-env/tomcat-" + version + ".env"), amqp, db);

    tomcat =
        TomcatInstallation.install(
            DEPLOY_DIR,
            tarball,
            war,
            WORK.resolve("it-tomcat/" + version).toAbsolutePath(),
            freePort(),
            envFile,
            WORK.resolve("it-logs/tomcat-" + version + ".log"));
    assertThat(tomcat.installResult().output())
        // version.sh says e.g. "11.0.24.0" for 11.0.24.
        .containsPattern("Apache Tomcat " + Pattern.quote(version) + "(\\.0)? laid out")
        .contains("installing " + war)
        .contains("Album Store is up at " + tomcat.baseUrl());
    // setenv.sh turned the env file's TOMCAT_* lines into JVM flags and connector properties.
    assertThat(tomcat.jvmArguments()).contains("-Xmx256m", "-Dalbumstore.http.maxThreads=64");

    consumer = AlbumStoreConsumer.start(consumerSettings(), amqp, db);
    Http http = new Http(tomcat.baseUrl());

    theLoadClientVerifiesEveryWrite(version);
    theConsumerAppliedExactlyTheAcknowledgedWrites();
    theHealthCheckAnswersThroughTheInstalledConnector(http);
    imagesUpToTheLimitPassAndLargerOnesGetTheApplicationsJson413(http, db);

    Scripts.Result stop = tomcat.stop();
    assertThat(stop.exitCode()).as(stop.output()).isZero();
    assertThat(tomcat.process()).as("Tomcat still runs after catalina.sh stop").isEmpty();
    // The application closed what it opened when Tomcat undeployed it: no thread or driver left
    // behind for Tomcat to report as a leak, no error.
    assertThat(tomcat.catalinaOut())
        .contains("Server components closed")
        .doesNotContain("memory leak")
        .doesNotContain(" SEVERE ");
  }

  private void theLoadClientVerifiesEveryWrite(String version) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ClientResult r =
        ClientMain.execute(
            Env.of(Map.of()),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err,
            "--threads",
            Integer.toString(THREADS),
            "--iterations",
            Integer.toString(ITERATIONS),
            "--url",
            tomcat.baseUrl(),
            "--queue",
            amqp.queue(),
            "--amqp-uri",
            amqp.uri(),
            "--rmq-api",
            "none",
            "--drain-timeout",
            "60",
            "--no-progress",
            "--out",
            WORK.resolve("client-runs/tomcat-" + version).toString());
    String report = out.toString(StandardCharsets.UTF_8);
    assertThat(r.exitCode()).as(report + "\n" + tomcat.logs()).isZero();
    RunSummary s = r.summary();
    assertThat(s.stats("POST /albums").ok()).isEqualTo(ALBUMS);
    assertThat(s.stats("POST /review/like").ok()).isEqualTo(2L * ALBUMS);
    assertThat(s.stats("POST /review/dislike").ok()).isEqualTo(ALBUMS);
    assertThat(s.allWrites().failed()).isZero();
    assertThat(s.verification().status()).isEqualTo("ok");
    assertThat(s.verification().albums()).isEqualTo(ALBUMS);
    assertThat(s.verification().mismatches()).isZero();
    assertThat(report).contains("verified: " + ALBUMS + " albums, 0 mismatches");
  }

  private void theConsumerAppliedExactlyTheAcknowledgedWrites() throws InterruptedException {
    // The client saw every count through the server; the consumer's own totals must match them:
    // nothing applied twice, nothing dead-lettered. Counters move just after the ack: poll briefly.
    awaitTrue(
        () -> {
          ConsumerCounters c = consumer.counters();
          return c.albumsInserted() == ALBUMS && c.reviewsApplied() == 3L * ALBUMS;
        },
        10);
    ConsumerCounters c = consumer.counters();
    assertThat(c.albumsInserted()).isEqualTo(ALBUMS);
    assertThat(c.reviewsApplied()).isEqualTo(3L * ALBUMS);
    assertThat(c.deadLettered()).isZero();
  }

  private void theHealthCheckAnswersThroughTheInstalledConnector(Http http) throws Exception {
    Http.Reply health = http.get("/health");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.contentType()).startsWith("application/json");
    assertThat(health.json().get("status").asText()).isEqualTo("UP");
    // server.xml's server="albumstore": the project's connector, not the stock one, answered.
    assertThat(health.server()).isEqualTo("albumstore");
  }

  private void imagesUpToTheLimitPassAndLargerOnesGetTheApplicationsJson413(
      Http http, DatabaseSettings db) throws Exception {
    String fiveMiB = postAlbum(http, image(5 * MIB), "5 MiB cover");
    String atTheLimit = postAlbum(http, image(IMAGE_LIMIT), "10 MiB cover");

    byte[] tooLarge = image(11 * MIB);
    for (String filename : new String[] {null, "cover.png"}) {
      Http.Reply r = http.postAlbum(tooLarge, filename, profile("11 MiB cover"));
      assertThat(r.status())
          .as("11 MiB image, file name %s: %s", filename, r.body())
          .isEqualTo(413);
      assertThat(r.contentType()).startsWith("application/json");
      assertThat(r.json().get("msg").asText()).contains("at most " + IMAGE_LIMIT + " bytes");
    }

    // The accepted ones went through the broker and the consumer into PostgreSQL, whole.
    awaitTrue(() -> storedImageSize(db, fiveMiB) == 5 * MIB, 30);
    awaitTrue(() -> storedImageSize(db, atTheLimit) == IMAGE_LIMIT, 30);
    assertThat(storedImageSize(db, fiveMiB)).isEqualTo(5 * MIB);
    assertThat(storedImageSize(db, atTheLimit)).isEqualTo(IMAGE_LIMIT);
    Http.Reply album = http.get("/albums/" + fiveMiB);
    assertThat(album.status()).isEqualTo(200);
    assertThat(album.json().get("title").asText()).isEqualTo("5 MiB cover");
  }

  /** Posts an album whose image part has no file name; returns the albumID of the 200. */
  private static String postAlbum(Http http, byte[] image, String title) throws Exception {
    Http.Reply r = http.postAlbum(image, null, profile(title));
    assertThat(r.status()).as("%d-byte image: %s", image.length, r.body()).isEqualTo(200);
    JsonNode body = r.json();
    assertThat(body.get("imageSize").asText()).isEqualTo(Integer.toString(image.length));
    return body.get("albumID").asText();
  }

  private static String profile(String title) {
    return "{\"artist\":\"Deployment IT\",\"title\":\"" + title + "\",\"year\":\"2025\"}";
  }

  /** Incompressible bytes, so no layer on the way can make the upload smaller than it is. */
  private static byte[] image(int size) {
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    return b;
  }

  /** image_size and the stored byte count of an album; -1 until the consumer has inserted it. */
  private static long storedImageSize(DatabaseSettings db, String albumId) {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        PreparedStatement st =
            c.prepareStatement(
                "SELECT image_size, octet_length(image) FROM albums WHERE album_id = ?")) {
      st.setString(1, albumId);
      try (ResultSet rs = st.executeQuery()) {
        if (!rs.next()) {
          return -1;
        }
        assertThat(rs.getLong(2)).as("stored bytes of %s", albumId).isEqualTo(rs.getLong(1));
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read album " + albumId + " from " + db.jdbcUrl(), e);
    }
  }

  private static void awaitTrue(BooleanSupplier condition, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
  }

  private static ConsumerSettings consumerSettings() {
    return ConsumerSettings.from(
        Env.of(
            Map.of(
                ConsumerSettings.CONNECTIONS.variable(),
                "1",
                ConsumerSettings.CHANNELS.variable(),
                "2")));
  }

  /**
   * The env file an operator writes (see albumstore.env.example): the broker and database of the
   * test services, and a heap and thread count sized for a test rather than a server.
   */
  private static Path writeEnvFile(Path file, AmqpSettings amqp, DatabaseSettings db)
      throws IOException {
    Map<String, String> settings = new LinkedHashMap<>(TestServices.overrides(amqp, db));
    settings.put("TOMCAT_HEAP", "256m");
    settings.put("TOMCAT_MAX_THREADS", "64");
    List<String> lines = new ArrayList<>();
    lines.add("# written by TomcatDeploymentIT");
    settings.forEach((k, v) -> lines.add(k + "=" + v));
    Files.createDirectories(file.getParent());
    return Files.write(file, lines, StandardCharsets.UTF_8).toAbsolutePath();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Reverse order of start; each step runs even if an earlier one failed. */
  @AfterEach
  void cleanUp() throws Exception {
    try {
      if (tomcat != null) {
        tomcat.destroy(); // a no-op when the test stopped it; kills it after a failure
      }
    } finally {
      try {
        if (consumer != null) {
          consumer.close();
        }
      } finally {
        if (amqp != null) {
          TestServices.deleteTopology(amqp);
        }
      }
    }
  }
}
