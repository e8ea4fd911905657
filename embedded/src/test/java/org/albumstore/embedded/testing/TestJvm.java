package org.albumstore.embedded.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A main class of the test classpath run in a JVM of its own, for what one JVM cannot show of
 * itself: its exit, or a start with no per-JVM state left from the tests before it.
 */
public final class TestJvm {
  private TestJvm() {}

  /**
   * How a run ended.
   *
   * @param ended whether the JVM exited within the limit (else it was killed)
   * @param exitCode its exit code, or -1 if it was killed
   * @param output what it printed, standard output and error together
   */
  public record Run(boolean ended, int exitCode, String output) {}

  /**
   * Runs {@code main} with this JVM's Java and classpath, {@code jvmOptions} (e.g. {@code
   * -Dname=value}) and {@code args}, its output in {@code log}; kills it if it overruns {@code
   * limit}.
   */
  public static Run run(
      Class<?> main, Path log, Duration limit, List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    Process child =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean ended = child.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    if (!ended) {
      child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    return new Run(ended, ended ? child.exitValue() : -1, output);
  }
}
