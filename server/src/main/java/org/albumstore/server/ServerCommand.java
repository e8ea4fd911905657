package org.albumstore.server;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.LogFormat;
import org.albumstore.common.config.SettingOptions;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The command line of {@code java -jar albumstore-server.jar}. Every flag is derived from a
 * declared {@link org.albumstore.common.config.Setting} ({@link ServerSettings#DECLARED}): a flag
 * given wins, else the variable, else the default its help states. Flags have no value when not
 * given, so that the environment still applies and a password taken from the environment is never
 * printed by {@code --help}.
 */
@Command(
    name = "albumstore-server",
    modelTransformer = ServerCommand.Options.class,
    mixinStandardHelpOptions = true,
    version = "albumstore-server 1.0.0",
    sortOptions = false,
    description = {
      "Album Store HTTP server (embedded Tomcat) under " + CommonSettings.CONTEXT_PATH + ".",
      "Writes are published to RabbitMQ with publisher confirms; reads come from PostgreSQL.",
      "On SIGTERM / Ctrl-C: /health answers 503 for the drain delay, requests in flight are"
          + " answered, then it stops."
    })
final class ServerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** Adds one option per server setting ({@link ServerSettings#DECLARED}). */
  static final class Options implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
      SettingOptions.addTo(commandSpec, ServerSettings.DECLARED);
      return commandSpec;
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    final AlbumStoreServer server;
    final Duration drainDelay;
    try {
      Env env = Env.system().withOverrides(overrides());
      if (LogFormat.from(env) == LogFormat.JSON) {
        // Embedded Tomcat logs through java.util.logging: through SLF4J, its lines are JSON too.
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
      }
      drainDelay = DrainDelay.from(env);
      server = AlbumStoreServer.start(env);
    } catch (IllegalArgumentException e) {
      System.err.println("albumstore-server: " + e.getMessage());
      return 2;
    } catch (IllegalStateException e) {
      System.err.println("albumstore-server: " + e.getMessage());
      return 1;
    }
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> server.drainAndClose(drainDelay), "albumstore-shutdown"));
    server.awaitClose();
    return 0;
  }

  /** The flags that were given, under their variable names. */
  Map<String, String> overrides() {
    return SettingOptions.given(spec, ServerSettings.DECLARED);
  }
}
