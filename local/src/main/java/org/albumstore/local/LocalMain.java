package org.albumstore.local;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Level;
import org.albumstore.client.ClientMain;
import org.albumstore.common.config.Env;
import picocli.CommandLine;

/**
 * {@code java -jar local/target/albumstore-local.jar [--embedded] [--port N] [client options]}: the
 * whole Album Store on one machine, then a load run against it (see {@link LocalRun}).
 *
 * <p>Output: the launcher's steps and the client's report on stdout; logs and the client's progress
 * line on stderr.
 */
public final class LocalMain {
  /**
   * Tomcat logs through java.util.logging, one INFO line per connector and engine step. JUL holds
   * loggers weakly: the references keep the levels set here.
   */
  private static final List<java.util.logging.Logger> QUIET_JUL_LOGGERS =
      List.of(
          java.util.logging.Logger.getLogger("org.apache.catalina"),
          java.util.logging.Logger.getLogger("org.apache.coyote"),
          java.util.logging.Logger.getLogger("org.apache.tomcat"));

  private LocalMain() {}

  public static void main(String[] args) {
    // A command-line tool: the client's chart is drawn off-screen, no window system is needed.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    QUIET_JUL_LOGGERS.forEach(l -> l.setLevel(Level.WARNING));
    Env env = Env.system();
    Parsed parsed = parse(System.out, System.err, args);
    if (parsed.options() == null) {
      System.exit(parsed.exitCode());
    }
    Launch run = launch(parsed.options(), env, System.out, System.err);
    StopSignals.install(
        () -> {
          if (!run.stop(Launch.SHUTDOWN_LIMIT)) {
            System.exit(130); // a part did not let go in time; the shutdown hook has nothing left
          }
        },
        "already stopping, in order; this takes at most "
            + Launch.SHUTDOWN_LIMIT.toSeconds()
            + " s");
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> run.stop(Launch.SHUTDOWN_LIMIT), "albumstore-local-shutdown"));
    System.exit(run.call());
  }

  /** The options to launch with, or none and the exit code (help, version, usage error). */
  private record Parsed(LaunchCommand options, int exitCode) {}

  /**
   * Runs a launch as the command line would, without a shutdown hook and without exiting the JVM
   * (for tests and embedding).
   *
   * @return the exit code: the client's, 2 for a usage error, 3 when a part could not be started
   */
  public static int run(Env env, PrintStream out, PrintStream err, String... args) {
    Parsed parsed = parse(out, err, args);
    if (parsed.options() == null) {
      return parsed.exitCode();
    }
    return launch(parsed.options(), env, out, err).call();
  }

  private static Launch launch(LaunchCommand options, Env env, PrintStream out, PrintStream err) {
    return options.topology == LaunchCommand.Topology.cluster
        ? new ClusterRun(options, env, out, err)
        : new LocalRun(options, env, out, err);
  }

  private static Parsed parse(PrintStream out, PrintStream err, String[] args) {
    LaunchCommand options = new LaunchCommand();
    CommandLine cli = new CommandLine(options);
    cli.setOverwrittenOptionsAllowed(true);
    try {
      cli.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      err.println("error: " + e.getMessage());
      err.println("Try --help for the options and their defaults.");
      return new Parsed(null, 2);
    }
    if (cli.isUsageHelpRequested()) {
      cli.usage(out);
      out.println();
      out.println("Load client options (passed through):");
      out.print(clientHelp());
      return new Parsed(null, 0);
    }
    if (cli.isVersionHelpRequested()) {
      cli.printVersionHelp(out);
      return new Parsed(null, 0);
    }
    if (options.autoscale && options.topology != LaunchCommand.Topology.cluster) {
      err.println("error: --autoscale needs --topology cluster");
      return new Parsed(null, 2);
    }
    return new Parsed(options, 0);
  }

  private static String clientHelp() {
    ByteArrayOutputStream help = new ByteArrayOutputStream();
    ClientMain.execute(
        Env.of(java.util.Map.of()),
        new PrintStream(help, true, StandardCharsets.UTF_8),
        System.err,
        "--help");
    return help.toString(StandardCharsets.UTF_8);
  }
}
