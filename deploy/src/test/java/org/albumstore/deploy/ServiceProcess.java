package org.albumstore.deploy;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of the project's runnable jars (the server, the consumer) or another program as a process of
 * its own, with its output in a file, as an operator runs it: a test can read its log as written
 * and scrape it like a Prometheus would. Stopped by its PID (SIGTERM, then SIGKILL after a grace
 * period), never by name.
 */
final class ServiceProcess implements AutoCloseable {
  private static final Duration STOP_GRACE = Duration.ofSeconds(20);

  private final String name;
  private final Process process;
  private final Path log;

  private ServiceProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** {@code java -jar <jar> args} on the test's own JDK. */
  static ServiceProcess startJar(
      String name, Path jar, List<String> jvmOptions, Map<String, String> env, Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(jar.toString());
    return start(name, command, env, log);
  }

  /** Any command; its output (stdout and stderr) goes to {@code log}, its input is empty. */
  static ServiceProcess start(String name, List<String> command, Map<String, String> env, Path log)
      throws IOException {
    Files.createDirectories(log.getParent());
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().clear();
    pb.environment().putAll(env);
    return new ServiceProcess(name, pb.start(), log);
  }

  /** Polls {@code url} until it answers 200, the process dies, or {@code timeout} passes. */
  void awaitOk(String url, Duration timeout) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited (" + process.exitValue() + "): " + tail());
      }
      try {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
        last = r.statusCode() + " " + r.body();
      } catch (IOException e) {
        last = e.toString();
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(
        name + ": " + url + " not 200 within " + timeout + " (" + last + "): " + tail());
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  /** The last 40 lines of its output, for failure messages. */
  String tail() throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  /** SIGTERM, at most {@link #STOP_GRACE} for it to end, then SIGKILL; to it and its children. */
  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ")";
  }
}
