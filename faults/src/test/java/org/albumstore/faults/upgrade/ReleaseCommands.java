package org.albumstore.faults.upgrade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.Release;

/**
 * A release's one-shot commands, as the runbook runs them: {@code java -jar albumstore-consumer.jar
 * schema} (the expand step) and {@code ... redrive} (the dead-letter queues moved back), each in a
 * process of its own, bounded, its output in {@code target/faults/<name>-<command>.log}.
 */
final class ReleaseCommands {
  /** How long a command may take: seconds, unless the broker or the database is away a while. */
  private static final Duration LIMIT = Duration.ofSeconds(120);

  private static final Pattern MOVED =
      Pattern.compile("^moved (\\d+) messages from (\\S+) to (\\S+)$", Pattern.MULTILINE);
  private static final Pattern REASON = Pattern.compile("^ *(\\d+)  (.+)$", Pattern.MULTILINE);

  private final Release release;
  private final String name;

  /**
   * @param release whose consumer jar runs the commands
   * @param name the log files' prefix
   */
  ReleaseCommands(Release release, String name) {
    this.release = release;
    this.name = name;
  }

  /** What a command printed, and how long it ran. */
  record Output(String text, long millis) {
    /** The first line printed that contains {@code text}, else the last line, for a report. */
    String line(String containing) {
      List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
      return lines.stream()
          .filter(l -> l.contains(containing))
          .findFirst()
          .orElse(lines.isEmpty() ? "" : lines.get(lines.size() - 1));
    }
  }

  /** What a redrive moved: in all, and by the reason each message had been dead-lettered for. */
  record Redrive(long moved, Map<String, Long> byReason) {
    @Override
    public String toString() {
      return "moved " + moved + " messages" + (byReason.isEmpty() ? "" : " " + byReason);
    }
  }

  /** {@code schema}: applies the release's schema.sql to {@code db}, online. */
  Output schema(DatabaseSettings db) throws IOException, InterruptedException {
    return run(
        "schema",
        Map.of(CommonSettings.DB_PASSWORD.variable(), db.password()),
        "schema",
        "--jdbc-url",
        db.jdbcUrl(),
        "--db-user",
        db.user());
  }

  /** {@code redrive}: every partition's dead-letter queue of {@code amqp} moved back, once. */
  Redrive redrive(AmqpSettings amqp) throws IOException, InterruptedException {
    Output out =
        run(
            "redrive",
            // It declares the topology first, with the arguments the queues were declared with.
            Map.of(
                CommonSettings.QUORUM_GROUP_SIZE.variable(),
                Integer.toString(amqp.quorumGroupSize())),
            "redrive",
            "--amqp-uri",
            amqp.uri(),
            "--queue",
            amqp.queue(),
            "--queue-partitions",
            Integer.toString(amqp.partitions()),
            "--queue-type",
            amqp.queueType().wireName());
    return parseRedrive(out.text());
  }

  /** The counts of a redrive's output: its "moved N messages from ..." and reason lines. */
  static Redrive parseRedrive(String output) {
    long moved = 0;
    Matcher m = MOVED.matcher(output);
    while (m.find()) {
      moved += Long.parseLong(m.group(1));
    }
    Map<String, Long> byReason = new TreeMap<>();
    Matcher r = REASON.matcher(output);
    while (r.find()) {
      byReason.merge(r.group(2).strip(), Long.parseLong(r.group(1)), Long::sum);
    }
    return new Redrive(moved, byReason);
  }

  /** {@code java -jar <consumer jar> args...}, bounded; fails unless it exits 0. */
  private Output run(String what, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Paths.java(), "-Xmx256m", "-jar"));
    cmd.add(release.consumerJar().toString());
    cmd.addAll(List.of(args));
    Path log = Paths.outputDir().resolve(name + "-" + what + ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("ALBUMSTORE_"));
    pb.environment().putAll(env);
    long t0 = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new IllegalStateException(
          what + " did not finish within " + LIMIT + ":\n" + Files.readString(log));
    }
    String text = Files.readString(log, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IllegalStateException(what + " exited " + p.exitValue() + ":\n" + text);
    }
    return new Output(text, (System.nanoTime() - t0) / 1_000_000);
  }
}
