package org.albumstore.client;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Arrays;
import org.albumstore.client.internal.merge.Merge;
import org.albumstore.common.config.Env;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * One invocation of the client, as the command line would run it: {@link #execute()} on one thread,
 * {@link #stop} from another (Ctrl-C, or the {@code local/} launcher stopping its stack). An object
 * rather than a static "current run", so that whoever started a run is the one that can stop it,
 * and a stop that comes before the run has begun is kept rather than lost.
 */
public final class ClientRun {
  private static final Logger log = LoggerFactory.getLogger(ClientRun.class);

  private final Env env;
  private final PrintStream out;
  private final PrintStream err;
  private final String[] args;

  /** Guarded by this: the load run once it exists, and whether stop() came first. */
  private LoadRun load;

  private boolean stopped;

  /**
   * @param env where {@code ALBUMSTORE_*} fallbacks are read
   * @param out the report
   * @param err usage errors, progress lines
   */
  public ClientRun(Env env, PrintStream out, PrintStream err, String... args) {
    this.env = env;
    this.out = out;
    this.err = err;
    this.args = args.clone();
  }

  /** Runs the client (on the calling thread) and returns its exit code and summary. */
  public ClientResult execute() {
    if (args.length > 0 && Merge.COMMAND.equals(args[0])) {
      // A word, not a picocli subcommand: the course form's first positional is a number, and
      // picocli would try "merge" as one.
      return new ClientResult(
          Merge.execute(out, err, Arrays.copyOfRange(args, 1, args.length)).exitCode(), null);
    }
    if (args.length > 0 && CheckHistoryCommand.COMMAND.equals(args[0])) {
      return new ClientResult(
          CheckHistoryCommand.execute(env, out, err, Arrays.copyOfRange(args, 1, args.length)),
          null);
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
      cfg = ConfigResolver.resolve(command, env, LocalDateTime.now());
    } catch (CommandLine.ParameterException | IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println("Try --help for the options and their defaults.");
      return new ClientResult(2, null);
    }
    LoadRun run;
    synchronized (this) {
      if (stopped) {
        err.println("stopped before the run started");
        return new ClientResult(130, null);
      }
      run = new LoadRun(cfg, out, err);
      load = run;
    }
    try {
      return run.run();
    } catch (LoadRun.UnreachableServerException e) {
      err.println("error: " + e.getMessage());
      return new ClientResult(3, null);
    } catch (IOException | RuntimeException e) {
      log.error("run failed", e);
      err.println("error: " + e);
      return new ClientResult(3, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("interrupted");
      return new ClientResult(130, null);
    }
  }

  /**
   * Ends the run early: no further iterations, no verification; waits up to {@code limit} for its
   * report to be written. Before the run has started, it makes {@link #execute()} return at once.
   */
  public void stop(Duration limit) throws InterruptedException {
    LoadRun r;
    synchronized (this) {
      stopped = true;
      r = load;
    }
    if (r != null) {
      r.stopAndAwait(limit);
    }
  }
}
