package org.albumstore.client;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.albumstore.client.merge.Merge;
import org.albumstore.client.report.RunSummary;
import org.albumstore.common.config.Env;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The load client's entry points: {@link #main} for {@code java -jar client.jar}, {@link #run} and
 * {@link #execute} for code (the {@code local/} module, tests), which never exit the JVM.
 *
 * <p>Output: the final report on stdout, the progress line and logs on stderr, the run's files in
 * {@code --out}.
 */
public final class ClientMain {
  private static final Logger LOG = LoggerFactory.getLogger(ClientMain.class);

  /** How long Ctrl-C waits for the stopped run to write its report. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(60);

  private static final AtomicReference<LoadRun> CURRENT = new AtomicReference<>();

  private ClientMain() {}

  public static void main(String[] args) {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    stopRunning(STOP_WAIT);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "client-shutdown"));
    System.exit(run(args));
  }

  /**
   * Runs the client as the command line would.
   *
   * @return the exit code (see {@link ClientResult#exitCode()})
   */
  public static int run(String... args) {
    return execute(args).exitCode();
  }

  /** Runs the client as the command line would and returns the summary too. */
  public static ClientResult execute(String... args) {
    return execute(Env.system(), System.out, System.err, args);
  }

  /**
   * @param env where {@code ALBUMSTORE_*} fallbacks are read
   * @param out the report
   * @param err usage errors, progress lines
   */
  public static ClientResult execute(Env env, PrintStream out, PrintStream err, String... args) {
    if (args.length > 0 && Merge.COMMAND.equals(args[0])) {
      // A word, not a picocli subcommand: the course form's first positional is a number, and
      // picocli would try "merge" as one.
      return new ClientResult(
          Merge.execute(out, err, Arrays.copyOfRange(args, 1, args.length)).exitCode(), null);
    }
    ClientCommand command = new ClientCommand();
    CommandLine cli = new CommandLine(command);
    // Scripts build argument lists by appending: the last occurrence of an option wins.
    cli.setOverwrittenOptionsAllowed(true);
    ClientConfig cfg;
    try {
      cli.parseArgs(args);
      if (cli.isUsageHelpRequested()) {
        cli.usage(out);
        return new ClientResult(0, null);
      }
      if (cli.isVersionHelpRequested()) {
        cli.printVersionHelp(out);
        return new ClientResult(0, null);
      }
      cfg = command.toConfig(env, LocalDateTime.now());
    } catch (CommandLine.ParameterException | IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println("Try --help for the options and their defaults.");
      return new ClientResult(2, null);
    }
    LoadRun run = new LoadRun(cfg, out, err);
    CURRENT.set(run);
    try {
      RunSummary summary = run.run();
      return new ClientResult(summary.exitCode(), summary);
    } catch (LoadRun.UnreachableServerException e) {
      err.println("error: " + e.getMessage());
      return new ClientResult(3, null);
    } catch (IOException | RuntimeException e) {
      LOG.error("run failed", e);
      err.println("error: " + e);
      return new ClientResult(3, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("interrupted");
      return new ClientResult(130, null);
    } finally {
      CURRENT.compareAndSet(run, null);
    }
  }

  /**
   * Ends the run in progress early (Ctrl-C, SIGTERM): no further iterations, no verification, and
   * waits up to {@code limit} for its report to be written.
   */
  public static void stopRunning(Duration limit) throws InterruptedException {
    LoadRun r = CURRENT.get();
    if (r != null) {
      r.stopAndAwait(limit);
    }
  }

  static String version() {
    String v = ClientMain.class.getPackage().getImplementationVersion();
    return v != null ? v : "dev";
  }

  /** {@code --version}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"albumstore-client " + version()};
    }
  }
}
