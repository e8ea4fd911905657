package org.albumstore.local;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server or consumer instance in a JVM of its own, as on separate machines: started from this
 * JVM's own class path (the local jar carries both), configured only by its {@code ALBUMSTORE_*}
 * environment, its output in a log file, stopped by its PID.
 *
 * <p>{@link #close()} is the orderly stop an instance gets from its supervisor: SIGTERM (the server
 * drains, the consumer finishes its batch), SIGKILL only after the limit. {@link #kill()} is the
 * crash: SIGKILL at once.
 */
final class ChildJvm implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ChildJvm.class);

  private final String name;
  private final Process process;
  private final Path logFile;
  private final Duration stopLimit;

  private ChildJvm(String name, Process process, Path logFile, Duration stopLimit) {
    this.name = name;
    this.process = process;
    this.logFile = logFile;
    this.stopLimit = stopLimit;
  }

  /**
   * Starts {@code mainClass} with {@code args} and this environment plus {@code env}; a small heap,
   * since several instances share one machine.
   */
  static ChildJvm start(
      String name,
      String mainClass,
      List<String> args,
      Map<String, String> env,
      Path logFile,
      Duration stopLimit)
      throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-Xmx256m");
    cmd.add("-Djava.awt.headless=true");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    cmd.addAll(args);
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(logFile.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    log.info("{} started (pid {}), log {}", name, p.pid(), logFile);
    return new ChildJvm(name, p, logFile, stopLimit);
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path logFile() {
    return logFile;
  }

  /** The crash: SIGKILL, no drain, no last batch; returns once the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    log.info("{} (pid {}) killed", name, process.pid());
  }

  /** SIGTERM, then SIGKILL if it has not ended within its stop limit. */
  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!process.waitFor(stopLimit.toMillis(), TimeUnit.MILLISECONDS)) {
      log.warn("{} (pid {}) still runs {} after SIGTERM; killing it", name, pid(), stopLimit);
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
