package org.albumstore.deploy;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs this folder's shell scripts as child processes: bounded in time, output appended to a log
 * file, in an environment that cannot leak a developer's settings into the test.
 */
final class Scripts {

  /** How a script ended, with the output it wrote in this run. */
  record Result(int exitCode, String output) {
    /** The last lines of the output, for assertion messages. */
    String tail(int lines) {
      String[] all = output.split("\n");
      return String.join("\n", List.of(all).subList(Math.max(0, all.length - lines), all.length));
    }
  }

  private Scripts() {}

  /**
   * The test JVM's environment without any {@code ALBUMSTORE_*}, {@code TOMCAT_*}, {@code
   * CATALINA_*} or Java option variables: setenv.sh lets the environment win over the env file, so
   * a variable left in a developer's shell would silently point Tomcat at another queue. Java is
   * the test's own (JAVA_HOME and first on PATH), so Tomcat runs on the JDK the build uses.
   */
  static Map<String, String> cleanEnvironment() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.keySet()
        .removeIf(
            k ->
                k.startsWith("ALBUMSTORE_")
                    || k.startsWith("TOMCAT_")
                    || k.startsWith("CATALINA_")
                    || k.equals("JAVA_OPTS")
                    || k.equals("JRE_HOME")
                    || k.equals("JDK_JAVA_OPTIONS")
                    || k.equals("JAVA_TOOL_OPTIONS"));
    String javaHome = System.getProperty("java.home");
    env.put("JAVA_HOME", javaHome);
    env.put("PATH", javaHome + "/bin" + File.pathSeparator + env.getOrDefault("PATH", "/usr/bin"));
    return env;
  }

  /**
   * Runs {@code command} to its end, at most {@code timeout}; on timeout the command and every
   * process it started are killed and an {@link AssertionError} names the command.
   */
  static Result run(List<String> command, Map<String, String> env, Path log, Duration timeout)
      throws IOException, InterruptedException {
    Files.createDirectories(log.getParent());
    long offset = Files.exists(log) ? Files.size(log) : 0;
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            // A file, not a pipe: a daemon the script leaves behind (catalina.sh start) must not
            // hold a pipe of this JVM open, nor wait on its stdin.
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          command
              + " did not finish within "
              + timeout
              + "; killed. Output:\n"
              + since(log, offset));
    }
    return new Result(p.exitValue(), since(log, offset));
  }

  private static String since(Path log, long offset) throws IOException {
    byte[] all = Files.readAllBytes(log);
    int from = (int) Math.min(offset, all.length);
    return new String(all, from, all.length - from, StandardCharsets.UTF_8);
  }
}
