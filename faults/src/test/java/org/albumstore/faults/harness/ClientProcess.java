package org.albumstore.faults.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.DatabaseSettings;

/**
 * {@code java -jar client.jar} as a user runs it, in a process of its own (its own classpath, its
 * own trust store), bounded in time; its output goes to {@code target/faults/<name>.log}.
 *
 * @param exitCode the client's exit code
 * @param output what it printed, standard error included
 */
public record ClientProcess(int exitCode, String output) {
  private static final String HISTORY_HEAP = "-Xmx2g";

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

  /** What a paced load with its operation history is run against, and how. */
  public record HistoryLoad(
      String url,
      AmqpSettings amqp,
      DatabaseSettings db,
      String runId,
      int threads,
      int rate,
      Duration length,
      Duration drainTimeout) {}

  /**
   * A paced load of {@code load.threads} threads with {@code --history}, half the writers reading
   * back and 2 reader threads, judged by the checker at its end (its verdict in {@code out});
   * bounded by the load's length plus {@code slack}. Wrapped for use in a {@code CompletableFuture}
   * beside the faults.
   */
  public static ClientProcess runWithHistory(
      String name, HistoryLoad load, Duration slack, Path out) {
    return runWithHistory(name, load, slack, out, List.of());
  }

  /**
   * As {@link #runWithHistory(String, HistoryLoad, Duration, Path)}, with {@code more} client
   * options after the load's (e.g. {@code --end-file}).
   */
  public static ClientProcess runWithHistory(
      String name, HistoryLoad load, Duration slack, Path out, List<String> more) {
    List<String> args = new ArrayList<>(historyArgs(load, out));
    args.addAll(more);
    try {
      // The history and its check hold every operation: 256 MiB ran out at the end of a
      // 10-minute run at about 600 writes/s (150,000 albums); the last -Xmx given wins.
      return run(
          name, load.length().plus(slack), List.of(HISTORY_HEAP), args.toArray(String[]::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static List<String> historyArgs(HistoryLoad load, Path out) {
    return List.of(
        "--url",
        load.url(),
        "--queue",
        load.amqp().queue(),
        "--amqp-uri",
        load.amqp().uri(),
        "--rmq-api",
        "none",
        "--server-metrics",
        "none",
        "--consumer-metrics",
        "none",
        "--jdbc-url",
        load.db().jdbcUrl(),
        "--db-user",
        load.db().user(),
        "--db-password",
        load.db().password(),
        "--run-id",
        load.runId(),
        "--threads",
        Integer.toString(load.threads()),
        "--rate",
        Integer.toString(load.rate()),
        "--duration",
        Long.toString(load.length().toSeconds()),
        "--iterations",
        "100000",
        "--warmup-iterations",
        "0",
        "--history",
        "--read-back",
        "50",
        "--get-threads",
        "2",
        "--retries",
        "10",
        "--timeout",
        "15",
        "--drain-timeout",
        Long.toString(load.drainTimeout().toSeconds()),
        "--no-progress",
        "--out",
        out.toString());
  }
}
