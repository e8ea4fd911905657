package org.albumstore.consumer;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.LogFormat;
import org.albumstore.common.config.Setting;
import org.albumstore.common.config.SettingOptions;
import org.albumstore.common.tls.TlsFailures;
import org.albumstore.consumer.sql.AggregateWriter;
import org.albumstore.consumer.sql.BatchWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar albumstore-consumer.jar [options]}: runs the consumer until SIGTERM/Ctrl-C;
 * {@code ... redrive [options]} moves the dead-letter queue's messages back ({@link
 * RedriveCommand}); {@code ... schema [options]} applies schema.sql online ({@link SchemaCommand}).
 *
 * <p>Every flag is derived from a declared {@link Setting} ({@link #DECLARED}) and overrides its
 * environment variable, which overrides the default. Flags go through the same parsing as the
 * variables, so one set of rules (and one error message naming the setting) applies to both.
 */
@Command(
    name = "albumstore-consumer",
    modelTransformer = ConsumerMain.Options.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    subcommands = {RedriveCommand.class, SchemaCommand.class},
    description =
        "Applies Album Store writes from RabbitMQ to PostgreSQL in batches: M connections x K"
            + " channels, manual acks after commit, exactly-once counter effect.")
public final class ConsumerMain implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ConsumerMain.class);

  @Spec CommandSpec spec;

  private static final List<Setting<?>> OWN =
      List.of(
          ConsumerSettings.CONNECTIONS,
          ConsumerSettings.CHANNELS,
          ConsumerSettings.PREFETCH,
          ConsumerSettings.BATCH_SIZE,
          ConsumerSettings.BATCH_WAIT_MS,
          ConsumerSettings.BACKLOG_WAIT_MS,
          ConsumerSettings.DB_POOL_SIZE,
          ConsumerSettings.INIT_SCHEMA,
          ConsumerSettings.STATS_INTERVAL,
          LedgerRetention.RETENTION);

  /**
   * Every setting the consumer reads, in the order of {@code --help}: the shared broker and
   * database settings, its own, and where it serves its metrics.
   */
  static final List<Setting<?>> DECLARED =
      Stream.of(
              CommonSettings.SERVICE,
              OWN,
              MetricsSettings.DECLARED,
              List.<Setting<?>>of(LogFormat.SETTING))
          .flatMap(List::stream)
          .toList();

  /** Adds one option per setting of {@link #DECLARED}. */
  static final class Options implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
      SettingOptions.addTo(commandSpec, DECLARED);
      return commandSpec;
    }
  }

  /** Applies batches with {@link BatchWriter}: the consumer's only writer from the command line. */
  private final AggregateWriter.Factory writers;

  public ConsumerMain() {
    this(BatchWriter::new);
  }

  private ConsumerMain(AggregateWriter.Factory writers) {
    this.writers = writers;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new ConsumerMain()).execute(args));
  }

  /**
   * The command line as {@link #main} runs it, with the batches applied by what {@code writers}
   * makes: for a test's own main that runs the consumer with a bug planted on purpose ({@link
   * AggregateWriter}); returns the exit code.
   */
  public static int execute(AggregateWriter.Factory writers, String... args) {
    return new CommandLine(new ConsumerMain(writers)).execute(args);
  }

  /** The flags given, keyed by the environment variable each overrides. */
  Map<String, String> overrides() {
    return SettingOptions.given(spec, DECLARED);
  }

  @Override
  public Integer call() throws Exception {
    Env env = Env.system().withOverrides(overrides());
    final ConsumerSettings settings;
    final AmqpSettings amqp;
    final DatabaseSettings database;
    final MetricsSettings metricsSettings;
    final LedgerRetention retention;
    try {
      LogFormat.from(env); // logback read it already; an unknown value must not go unnoticed
      settings = ConsumerSettings.from(env);
      amqp = AmqpSettings.from(env);
      database = DatabaseSettings.from(env);
      metricsSettings = MetricsSettings.from(env);
      retention = LedgerRetention.from(env);
    } catch (IllegalArgumentException e) {
      return SettingOptions.refuse(spec, e);
    }
    final AlbumStoreConsumer consumer;
    try {
      consumer =
          AlbumStoreConsumer.start(
              AlbumStoreConsumer.Options.of(settings, amqp, database)
                  .withMetrics(metricsSettings)
                  .withRetention(retention)
                  .withWriters(writers));
    } catch (IOException | TimeoutException | SQLException e) {
      if (TlsFailures.explain(e).isPresent()) {
        // A refused certificate is a setting to fix, said in one line; a trace would bury it.
        log.error("cannot start: {}", e.getMessage());
      } else {
        log.error("cannot start: {}", e.toString(), e);
      }
      return CommandLine.ExitCode.SOFTWARE;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log.info("shutdown signal received");
                  consumer.close();
                  stopped.countDown();
                },
                "albumstore-consumer-shutdown"));
    stopped.await();
    return CommandLine.ExitCode.OK;
  }
}
