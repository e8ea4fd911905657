package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code albumstore-local.jar}, as a user starts it, stopped in the middle of its load
 * run. It must end the client (whose report is still printed), stop the consumer, the server and
 * the embedded broker and database, exit with 130, and leave no process behind.
 *
 * <p>The signal is SIGTERM, which the launcher handles exactly as Ctrl-C ({@link StopSignals}):
 * SIGINT itself is ignored by processes started from a background job, as a forked test JVM may be,
 * and would prove nothing there.
 */
class LocalJarIT {
  private static final Pattern EMBEDDED_PORT =
      Pattern.compile("(?:embedded PostgreSQL|embedded Qpid Broker-J) \\S+ on port (\\d+)");

  @TempDir Path dir;

  @Test
  void stoppedDuringTheLoadItReportsStopsEverythingAndLeavesNoProcess() throws Exception {
    Path jar = Path.of(System.getProperty("albumstore.local.jar", "target/albumstore-local.jar"));
    assertThat(jar).as("the shaded jar (mvn package builds it)").exists();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder pb =
        new ProcessBuilder(
            java.toString(),
            "-jar",
            jar.toString(),
            "--embedded",
            "--threads",
            "4",
            "--iterations",
            "100000",
            "--no-progress",
            "--out",
            dir.resolve("run").toString());
    pb.environment().keySet().removeIf(k -> k.startsWith("ALBUMSTORE_"));
    Path stdoutFile = dir.resolve("stdout.txt");
    Path stderrFile = dir.resolve("stderr.txt");
    pb.redirectOutput(stdoutFile.toFile());
    pb.redirectError(stderrFile.toFile());
    Process p = pb.start();
    try {
      assertThat(awaitLine(stderrFile, "thread group 1/1 started", 180))
          .as("the load started; stdout: %s%nstderr: %s", read(stdoutFile), read(stderrFile))
          .isTrue();
      Thread.sleep(1000); // into the load
      List<Integer> ports = embeddedPorts(read(stdoutFile));
      assertThat(ports).as("ports of the embedded database and broker").hasSize(2);
      // pg_ctl detaches the server from the JVM: find it by its port, not among the children.
      List<ProcessHandle> postgres = postgresOn(ports);
      assertThat(postgres).as("the embedded PostgreSQL's server process").hasSize(1);

      p.destroy(); // SIGTERM
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();

      String stdout = read(stdoutFile);
      assertThat(p.exitValue()).as(stdout).isEqualTo(130);
      assertThat(stdout)
          .as(read(stderrFile))
          .contains("verified: skipped (run stopped early)", "exit code: 130")
          .contains("stopped consumer", "stopped server")
          .contains("stopped embedded broker", "stopped embedded PostgreSQL");
      // pg_ctl stop returns once the server has removed its pid file, a moment before the
      // process itself has finished exiting.
      assertThat(postgres.get(0).onExit())
          .as("the embedded PostgreSQL after the stop")
          .succeedsWithin(Duration.ofSeconds(10));
      assertThat(p.descendants().filter(ProcessHandle::isAlive).toList()).isEmpty();
      for (int port : ports) {
        assertThat(answers(port)).as("port %d after the stop", port).isFalse();
      }
    } finally {
      // A failed assertion must not orphan the embedded PostgreSQL: SIGKILL skips the stop.
      if (p.isAlive()) {
        p.destroy();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
    }
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }

  private static boolean awaitLine(Path file, String text, int seconds)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      if (read(file).contains(text)) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  private static List<Integer> embeddedPorts(String text) {
    List<Integer> ports = new ArrayList<>();
    Matcher m = EMBEDDED_PORT.matcher(text);
    while (m.find()) {
      int port = Integer.parseInt(m.group(1));
      if (!ports.contains(port)) {
        ports.add(port);
      }
    }
    return ports;
  }

  private static List<ProcessHandle> postgresOn(List<Integer> ports) {
    return ProcessHandle.allProcesses()
        .filter(
            h -> {
              String cmd = h.info().commandLine().orElse("");
              return cmd.contains("/bin/postgres ")
                  && ports.stream().anyMatch(port -> cmd.contains(" -p " + port + " "));
            })
        .toList();
  }

  private static boolean answers(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
