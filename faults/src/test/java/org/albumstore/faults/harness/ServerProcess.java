package org.albumstore.faults.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server as the operator runs it, {@code java -jar albumstore-server.jar}, configured through
 * environment variables only (as a deployment would), its output captured in a file: for the tests
 * of what the server writes to its log.
 */
public final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING =
      Pattern.compile("listening on (http://127\\.0\\.0\\.1:(\\d+)/albumstore)");

  private final Process process;
  private final Path logFile;
  private final String baseUrl;
  private final Release release;

  private ServerProcess(Process process, Path logFile, String baseUrl, Release release) {
    this.process = process;
    this.logFile = logFile;
    this.baseUrl = baseUrl;
    this.release = release;
  }

  /** Starts the jar with {@code env} (plus port 0) and waits until it listens. */
  public static ServerProcess start(String name, Map<String, String> env)
      throws IOException, InterruptedException {
    return start(name, env, List.of());
  }

  /** As {@link #start(String, Map)}, with JVM flags (e.g. a trust store) before {@code -jar}. */
  public static ServerProcess start(String name, Map<String, String> env, List<String> jvmArgs)
      throws IOException, InterruptedException {
    return start(name, env, jvmArgs, Release.current());
  }

  /** As {@link #start(String, Map, List)}, the server of {@code release}. */
  public static ServerProcess start(
      String name, Map<String, String> env, List<String> jvmArgs, Release release)
      throws IOException, InterruptedException {
    Path logFile = Paths.outputDir().resolve(name + ".log");
    List<String> cmd =
        new java.util.ArrayList<>(List.of(Paths.java(), "-Xmx256m", "-XX:+UseSerialGC"));
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-jar", release.serverJar().toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(logFile.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("ALBUMSTORE_"));
    pb.environment().put("ALBUMSTORE_HTTP_PORT", "0");
    pb.environment().putAll(env);
    Process p = pb.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      String out = Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
      Matcher m = LISTENING.matcher(out);
      if (m.find()) {
        return new ServerProcess(p, logFile, m.group(1), release);
      }
      if (!p.isAlive() || System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new IllegalStateException(name + " did not start listening:\n" + out);
      }
      Thread.sleep(100);
    }
  }

  public String baseUrl() {
    return baseUrl;
  }

  /** Which release's jar this process runs. */
  public Release release() {
    return release;
  }

  /** SIGKILL: no drain, no answer to what is in flight; returns once the process is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
  }

  /** SIGTERM and a bounded wait; the exit status. */
  public int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      return -1;
    }
    return process.exitValue();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public String output() throws IOException {
    return Files.readString(logFile, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      stop();
    }
  }
}
