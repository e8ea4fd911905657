package org.albumstore.faults.harness;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.faults.planted.PlantedBug;
import org.albumstore.faults.planted.PlantedConsumerMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real consumer as the operator runs it, {@code java -jar albumstore-consumer.jar}, in a
 * process of its own so that a test can kill it with SIGKILL ({@link #kill()}) or stop it with
 * SIGTERM ({@link #terminate(Duration)}). Its output goes to a file under {@code target/faults/};
 * the counters it logs on a clean stop ({@code stopped: ConsumerCounters[...]}) are the scenario's
 * redelivery figures.
 */
public final class ConsumerProcess implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConsumerProcess.class);
  private static final Pattern STOPPED =
      Pattern.compile("stopped: ConsumerCounters\\[(.*?)\\]", Pattern.DOTALL);
  private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\d+)");

  /** The rate line's totals once a message was applied (consumer/.../RateReporter). */
  private static final Pattern APPLIED = Pattern.compile("totals: [1-9][0-9]* msgs");

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path logFile;
  private final String name;
  private final Release release;

  private ConsumerProcess(Process process, Path logFile, String name, Release release) {
    this.process = process;
    this.logFile = logFile;
    this.name = name;
    this.release = release;
  }

  /**
   * Starts a consumer on {@code amqp}'s queue writing to {@code db} and returns once it consumes.
   * The database password goes through the environment, as the consumer's help advises (flags show
   * in {@code ps}); {@code extraEnv} adds or overrides variables, {@code extraArgs} flags.
   */
  public static ConsumerProcess start(
      String name,
      AmqpSettings amqp,
      DatabaseSettings db,
      Map<String, String> extraEnv,
      String... extraArgs)
      throws IOException, InterruptedException {
    ConsumerProcess p = launch(name, amqp, db, extraEnv, extraArgs);
    p.awaitConsuming(amqp);
    return p;
  }

  /** Returns once a {@link #launch launched} consumer consumes {@code amqp}'s queue. */
  public void awaitConsuming(AmqpSettings amqp) throws IOException, InterruptedException {
    awaitLogLine("consuming " + amqp.queue() + " with", READY_TIMEOUT);
  }

  /** Starts the process without waiting for it to consume (for tests of failed starts). */
  public static ConsumerProcess launch(
      String name,
      AmqpSettings amqp,
      DatabaseSettings db,
      Map<String, String> extraEnv,
      String... extraArgs)
      throws IOException {
    return launch(name, List.of(), amqp, db, extraEnv, extraArgs);
  }

  /** As {@link #launch(String, AmqpSettings, DatabaseSettings, Map, String...)}, with JVM flags. */
  public static ConsumerProcess launch(
      String name,
      List<String> jvmArgs,
      AmqpSettings amqp,
      DatabaseSettings db,
      Map<String, String> extraEnv,
      String... extraArgs)
      throws IOException {
    return launch(name, Release.current(), jvmArgs, amqp, db, extraEnv, extraArgs);
  }

  /**
   * As {@link #launch(String, List, AmqpSettings, DatabaseSettings, Map, String...)}, the consumer
   * of {@code release}.
   */
  public static ConsumerProcess launch(
      String name,
      Release release,
      List<String> jvmArgs,
      AmqpSettings amqp,
      DatabaseSettings db,
      Map<String, String> extraEnv,
      String... extraArgs)
      throws IOException {
    List<String> program = List.of("-jar", release.consumerJar().toString());
    return launch(name, release, jvmArgs, program, amqp, db, extraEnv, extraArgs);
  }

  /**
   * As {@link #launch(String, AmqpSettings, DatabaseSettings, Map, String...)}, the consumer with
   * {@code bug} planted ({@link PlantedConsumerMain}: the consumer jar's command line, on a
   * classpath that adds this module's test classes).
   */
  public static ConsumerProcess launchPlanted(
      String name,
      PlantedBug bug,
      AmqpSettings amqp,
      DatabaseSettings db,
      Map<String, String> extraEnv,
      String... extraArgs)
      throws IOException {
    String classpath =
        Paths.consumerJar()
            + File.pathSeparator
            + Paths.basedir().resolve("target").resolve("test-classes");
    List<String> program =
        List.of("-cp", classpath, PlantedConsumerMain.class.getName(), bug.name());
    return launch(name, Release.current(), List.of(), program, amqp, db, extraEnv, extraArgs);
  }

  private static ConsumerProcess launch(
      String name,
      Release release,
      List<String> jvmArgs,
      List<String> program,
      AmqpSettings amqp,
      DatabaseSettings db,
      Map<String, String> extraEnv,
      String... extraArgs)
      throws IOException {
    // Small enough that a kill always finds messages in hand, large enough to batch; extraArgs
    // (flag, value pairs) override these.
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("--amqp-uri", amqp.uri());
    flags.put("--queue", amqp.queue());
    flags.put("--queue-partitions", Integer.toString(amqp.partitions()));
    flags.put("--queue-type", amqp.queueType().wireName());
    flags.put("--jdbc-url", db.jdbcUrl());
    flags.put("--db-user", db.user());
    flags.put("--connections", "1");
    flags.put("--channels", "2");
    flags.put("--prefetch", "400");
    flags.put("--batch-size", "200");
    flags.put("--batch-wait-ms", "50");
    flags.put("--stats-interval", "1");
    // Test JVMs run side by side, each with its consumers: none serves metrics on the default port.
    flags.put("--metrics-port", "-1");
    if (extraArgs.length % 2 != 0) {
      throw new IllegalArgumentException("extraArgs must be flag, value pairs");
    }
    for (int i = 0; i < extraArgs.length; i += 2) {
      flags.put(extraArgs[i], extraArgs[i + 1]);
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.java());
    cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC"));
    cmd.addAll(jvmArgs);
    cmd.addAll(program);
    flags.forEach(
        (flag, value) -> {
          cmd.add(flag);
          cmd.add(value);
        });
    Path logFile = Paths.outputDir().resolve(name + ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(logFile.toFile());
    // Only what this test sets: a developer's ALBUMSTORE_* variables must not leak in.
    pb.environment().keySet().removeIf(k -> k.startsWith("ALBUMSTORE_"));
    pb.environment().put(CommonSettings.DB_PASSWORD.variable(), db.password());
    pb.environment().putAll(extraEnv);
    Process process = pb.start();
    log.info("{}: started consumer process {} (log {})", name, process.pid(), logFile);
    return new ConsumerProcess(process, logFile, name, release);
  }

  /** Waits until the log holds {@code text}; fails early, with the log, if the process exits. */
  public void awaitLogLine(String text, Duration timeout) throws IOException, InterruptedException {
    awaitLog(out -> out.contains(text), "logging '" + text + "'", timeout);
  }

  /**
   * Waits until the consumer has committed a first message (its once-a-second rate line counts one
   * in its totals), e.g. so that a fault meant to strike while it applies does not come before.
   */
  public void awaitApplied(Duration timeout) throws IOException, InterruptedException {
    awaitLog(out -> APPLIED.matcher(out).find(), "applying a message", timeout);
  }

  private void awaitLog(Predicate<String> done, String what, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!done.test(output())) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + process.exitValue() + " before " + what + ":\n" + tail());
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            name + " did not get to " + what + " within " + timeout + ":\n" + tail());
      }
      Thread.sleep(50);
    }
  }

  /** SIGKILL: no shutdown hook, no flush, no ack; the broker redelivers what was in hand. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException(name + " survived SIGKILL for 10 s");
    }
    log.info("{}: killed (SIGKILL), exit {}", name, process.exitValue());
  }

  /**
   * SIGTERM, then waits for the process to exit; returns its exit code, or -1 if it had to be
   * killed after {@code timeout}.
   */
  public int terminate(Duration timeout) throws InterruptedException {
    if (!process.isAlive()) {
      return process.exitValue();
    }
    process.destroy();
    if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      log.info("{}: stopped (SIGTERM), exit {}", name, process.exitValue());
      return process.exitValue();
    }
    log.warn("{}: still running {} after SIGTERM; killing it", name, timeout);
    kill();
    return -1;
  }

  /** Waits for an exit the process chooses itself (e.g. a failed start). */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      kill();
      return -1;
    }
    return process.exitValue();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Everything the process wrote so far. */
  public String output() throws IOException {
    return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
  }

  public Path logFile() {
    return logFile;
  }

  /** Which release's jar this process runs. */
  public Release release() {
    return release;
  }

  public String name() {
    return name;
  }

  /** The last lines of the output, for failure messages. */
  public String tail() throws IOException {
    String[] lines = output().split("\n");
    int from = Math.max(0, lines.length - 40);
    return String.join("\n", java.util.Arrays.copyOfRange(lines, from, lines.length));
  }

  /**
   * A counter of the final {@code stopped: ConsumerCounters[...]} line (e.g. {@code
   * "redelivered"}), or -1 when the process never logged one (it was killed).
   */
  public long stoppedCounter(String field) throws IOException {
    Matcher m = STOPPED.matcher(output());
    String last = null;
    while (m.find()) {
      last = m.group(1);
    }
    if (last == null) {
      return -1;
    }
    Matcher f = FIELD.matcher(last);
    while (f.find()) {
      if (f.group(1).equals(field)) {
        return Long.parseLong(f.group(2));
      }
    }
    throw new IllegalStateException("no counter '" + field + "' in: " + last);
  }

  /** Stops the process if it still runs (SIGTERM, then SIGKILL); for test clean-up. */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      terminate(Duration.ofSeconds(20));
    }
  }
}
