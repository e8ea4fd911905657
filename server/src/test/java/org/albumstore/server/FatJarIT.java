package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.Test;

/** {@code java -jar albumstore-server.jar} serves the API and exits cleanly on SIGTERM. */
class FatJarIT {
  private static final Path JAR = Path.of("target", "albumstore-server.jar");
  private static final Pattern LISTENING =
      Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+/albumstore)");

  @Test
  void theRunnableJarServesTheApiAndStopsOnSigterm() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.fatJar");
    DatabaseSettings db = TestServices.database();
    List<String> cmd =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-jar",
            JAR.toString(),
            "--port=0",
            "--amqp-uri=" + amqp.uri(),
            "--queue=" + amqp.queue(),
            "--jdbc-url=" + db.jdbcUrl(),
            "--db-user=" + db.user(),
            "--db-pool-size=2",
            "--publish-channels=2");
    // Output to a file, not a pipe: the JDK may drop a pipe's last lines when the process exits
    // while another thread reads it, and the last lines are what this test checks.
    Path log = Files.createTempFile("albumstore-fat-jar-", ".log");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      Api api = new Api(awaitBaseUrl(p, log));
      assertThat(api.get("/health").status()).isEqualTo(200);
      assertThat(api.post("/review/like/jar-1").status()).isEqualTo(200);
      assertThat(TestServices.messageCount(amqp, amqp.queue())).isEqualTo(1);

      p.destroy(); // SIGTERM
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(output).isIn(0, 143); // 143 = 128 + SIGTERM
      assertThat(output).contains("Publisher stopped", "Album Store stopped");
    } finally {
      p.destroyForcibly();
      Files.deleteIfExists(log);
      TestServices.deleteTopology(amqp);
    }
  }

  private static String awaitBaseUrl(Process p, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
      if (m.find()) {
        return m.group(1);
      }
      if (!p.isAlive()) {
        throw new AssertionError("server exited: " + Files.readString(log));
      }
      Thread.sleep(100);
    }
    throw new AssertionError("server did not start: " + Files.readString(log));
  }
}
