package org.albumstore.client;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import org.albumstore.client.history.HistoryCheck;
import org.albumstore.client.history.HistoryFile;
import org.albumstore.client.history.Verdict;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.SettingOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar client.jar check-history DIR}: judges a run's operation history ({@link
 * HistoryCheck}) again, e.g. after the run, or against another copy of the database.
 */
@Command(
    name = "java -jar client.jar check-history",
    modelTransformer = CheckHistoryCommand.Options.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Judges the operation history of a run made with --history ("
          + HistoryFile.NAME
          + " in its directory): no lost write and no phantom (against the database), read-your-"
          + "writes, monotonic and bounded counts. Writes the verdict to DIR/"
          + HistoryCheck.VERDICT_FILE
          + " too.",
      ""
    },
    footer = {
      "",
      "Exit codes: 0 no violation; 1 violations, or a history that cannot be judged (cut short,"
          + " attempts not recorded); 2 usage error; 3 history unreadable or database unreachable."
    })
final class CheckHistoryCommand {
  /** The word that selects this subcommand, as the first argument of the client. */
  static final String COMMAND = "check-history";

  @Spec CommandSpec spec;

  /** Adds the database's options ({@link ClientSettings#DATABASE}). */
  static final class Options implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
      SettingOptions.addTo(commandSpec, ClientSettings.DATABASE);
      return commandSpec;
    }
  }

  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description = {"The run's directory (its --out).", "Default: none, required."})
  Path dir;

  /**
   * @param args the arguments after {@code check-history}
   * @return the exit code
   */
  static int execute(Env env, PrintStream out, PrintStream err, String... args) {
    CheckHistoryCommand cmd = new CheckHistoryCommand();
    CommandLine cli = new CommandLine(cmd);
    DatabaseSettings db;
    try {
      cli.parseArgs(args);
      if (cli.isUsageHelpRequested() || cli.isVersionHelpRequested()) {
        cli.usage(out);
        return 0;
      }
      db =
          ClientSettings.database(
              env.withOverrides(SettingOptions.given(cmd.spec, ClientSettings.DATABASE)));
    } catch (CommandLine.ParameterException | IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println("Try " + COMMAND + " --help for the options and their defaults.");
      return 2;
    }
    try {
      Verdict v = HistoryCheck.run(cmd.dir, db, out);
      return v.isClean() ? 0 : 1;
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      return 3;
    } catch (SQLException e) {
      err.println("error: cannot read the database " + db.jdbcUrl() + ": " + e.getMessage());
      return 3;
    }
  }
}
