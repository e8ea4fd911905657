package org.albumstore.consumer;

import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;
import org.albumstore.common.config.SettingOptions;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.common.tls.TlsFailures;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar albumstore-consumer.jar schema [database options]}: applies this release's
 * {@code schema.sql} online ({@link Schema#apply}: lock waits bounded, retried) and exits: the
 * expand step of an upgrade, run once before the first consumer of the release starts.
 */
@Command(
    name = "schema",
    modelTransformer = SchemaCommand.Options.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Applies this release's schema.sql to the database while writes go on (each table lock"
            + " waited for at most 500 ms, the script retried), then exits: run it before the"
            + " first consumer of a new release starts. Applying it again changes nothing.")
final class SchemaCommand implements Callable<Integer> {
  static final List<Setting<?>> DECLARED = CommonSettings.DATABASE;

  @Spec CommandSpec spec;

  /** Adds one option per database setting. */
  static final class Options implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
      SettingOptions.addTo(commandSpec, DECLARED);
      return commandSpec;
    }
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    final DatabaseSettings database;
    try {
      database =
          DatabaseSettings.from(Env.system().withOverrides(SettingOptions.given(spec, DECLARED)));
    } catch (IllegalArgumentException e) {
      return SettingOptions.refuse(spec, e);
    }
    try (HikariDataSource pool = Databases.pool(database, "albumstore-schema", 1)) {
      long start = System.nanoTime();
      int attempts = Schema.apply(pool);
      out.printf(
          "schema.sql applied to %s in %d ms (%d attempt%s)%n",
          database.jdbcUrl(),
          (System.nanoTime() - start) / 1_000_000,
          attempts,
          attempts == 1 ? "" : "s");
      out.flush();
      return CommandLine.ExitCode.OK;
    } catch (SQLException | RuntimeException e) {
      err.println(
          "schema.sql not applied to " + database.jdbcUrl() + ": " + TlsFailures.describe(e));
      err.flush();
      return CommandLine.ExitCode.SOFTWARE;
    }
  }
}
