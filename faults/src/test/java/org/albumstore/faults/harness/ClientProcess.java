package org.albumstore.faults.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar client.jar} as a user runs it, in a process of its own (its own classpath, its
 * own trust store), bounded in time; its output goes to {@code target/faults/<name>.log}.
 *
 * @param exitCode the client's exit code
 * @param output what it printed, standard error included
 */
public record ClientProcess(int exitCode, String output) {

  /**
   * Runs the client with {@code jvmArgs} before {@code -jar} and {@code args} after it; kills it
   * and fails when it is not done within {@code limit}.
   */
  public static ClientProcess run(String name, Duration limit, List<String> jvmArgs, String... args)
      throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(List.of(Paths.java(), "-Xmx256m", "-Djava.awt.headless=true"));
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-jar", Paths.clientJar().toString()));
    cmd.addAll(List.of(args));
    Path out = Paths.outputDir().resolve(name + ".log");
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("ALBUMSTORE_"));
    Process p = pb.start();
    if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          "the client did not finish within " + limit + ":\n" + Files.readString(out));
    }
    return new ClientProcess(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
  }
}
