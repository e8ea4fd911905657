package org.albumstore.client.internal.merge;

import java.io.IOException;
import java.io.PrintStream;
import org.albumstore.client.MergedSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/** Entry point of {@code merge}: parses, runs {@link MergeRun}, maps outcomes to exit codes. */
public final class Merge {
  /** The word that selects this subcommand, as the first argument of the client. */
  public static final String COMMAND = "merge";

  private static final Logger log = LoggerFactory.getLogger(Merge.class);

  private Merge() {}

  /**
   * @param summary null when no merge took place (help, usage error, unreadable runs)
   */
  public record Result(int exitCode, MergedSummary summary) {}

  /**
   * @param args the arguments after {@code merge}
   */
  public static Result execute(PrintStream out, PrintStream err, String... args) {
    MergeCommand cmd = new MergeCommand();
    CommandLine cli = new CommandLine(cmd);
    try {
      cli.parseArgs(args);
      if (cli.isUsageHelpRequested() || cli.isVersionHelpRequested()) {
        cli.usage(out);
        return new Result(0, null);
      }
      cmd.validate();
    } catch (CommandLine.ParameterException | IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println("Try merge --help for the options and their defaults.");
      return new Result(2, null);
    }
    try {
      MergedSummary s = new MergeRun(cmd).run(out);
      return new Result(s.exitCode(), s);
    } catch (IllegalArgumentException e) { // runs of different tests
      err.println("error: " + e.getMessage());
      return new Result(2, null);
    } catch (IOException | RuntimeException e) {
      log.debug("merge failed", e);
      err.println("error: " + e.getMessage());
      return new Result(3, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("interrupted");
      return new Result(130, null);
    }
  }
}
