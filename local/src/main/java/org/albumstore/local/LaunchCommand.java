package org.albumstore.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;
import org.albumstore.common.config.SettingOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * The launcher's own few options. Everything it does not know is the load client's and is passed on
 * unchanged and in order ({@link Unmatched}), so the client's options are documented and validated
 * in one place only, by the client.
 */
@Command(
    name = "java -jar albumstore-local.jar",
    modelTransformer = LaunchCommand.Options.class,
    mixinStandardHelpOptions = true,
    versionProvider = LocalVersion.class,
    sortOptions = false,
    customSynopsis =
        "java -jar albumstore-local.jar [--embedded] [--port=PORT] [--topology=single|cluster"
            + " [--servers=N] [--consumers=M] [--broker-nodes=K] [--autoscale ...]] [-hV]"
            + " [CLIENT_OPTION...]"
            + " [-- CLIENT_OPTION...]",
    usageHelpWidth = 100,
    description = {
      "Album Store on this machine, one command: starts PostgreSQL, an AMQP 0-9-1 broker, the"
          + " server and the consumer, runs the load client against them, prints its report and"
          + " verification, and stops everything again (also on Ctrl-C).",
      "",
      "Each of the broker and the database is, in this order: configured (ALBUMSTORE_AMQP_URI,"
          + " ALBUMSTORE_JDBC_URL; must answer, never replaced), else the local server on"
          + " 127.0.0.1:5672 / 127.0.0.1:5432, else embedded (Qpid Broker-J in this JVM,"
          + " PostgreSQL 16 as a child process).",
      ""
    },
    footer = {
      "",
      "Every other argument goes to the load client (its options follow below). The launcher"
          + " sets --url, --queue, --amqp-uri, --rmq-api and --consumer-metrics (and --server-metrics when"
          + " the server has a metrics port) to the started parts, and --threads "
          + ClientArguments.DEFAULT_THREADS
          + " unless --threads, --group-size or --groups is given; a client option given here"
          + " wins. Arguments after '--' go to the client even if the launcher knows them.",
      "The course's positional form needs the server's URL in advance and is not available"
          + " here; use --group-size N --groups G --delay D.",
      "Environment: every ALBUMSTORE_* variable of the server, the consumer and the client applies"
          + " (e.g. ALBUMSTORE_QUEUE, ALBUMSTORE_CONSUMER_CONNECTIONS).",
      "Exit code: the client's (0: all requests succeeded and verified); 2 usage error; 3 a part"
          + " could not be started; 130 stopped by Ctrl-C."
    })
final class LaunchCommand {
  @Option(
      names = "--embedded",
      description = {
        "Use the embedded broker and database even when local servers answer (a configured"
            + " ALBUMSTORE_AMQP_URI / ALBUMSTORE_JDBC_URL still wins).",
        "Default: off."
      })
  boolean embedded;

  /** The server's HTTP port; by default any free one, as the client is told the URL anyway. */
  static final Setting<Integer> PORT = CommonSettings.HTTP_PORT.withDefault(0);

  @Spec CommandSpec spec;

  /** Adds {@code --port}, derived from its declaration ({@link #PORT}). */
  static final class Options implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
      SettingOptions.addTo(commandSpec, List.of(PORT));
      return commandSpec;
    }
  }

  /** {@code --port} as given, else null. */
  Integer port() {
    return spec.findOption(PORT.flag()).getValue();
  }

  /** {@code --port}, else {@code ALBUMSTORE_HTTP_PORT}, else any free port. */
  int httpPort(Env env) {
    return PORT.read(env.withOverrides(SettingOptions.given(spec, List.of(PORT))));
  }

  /** The two shapes of the stack. */
  enum Topology {
    single,
    cluster
  }

  @Option(
      names = "--topology",
      paramLabel = "single|cluster",
      description = {
        "single: one server and one consumer in this JVM, one broker (as above). cluster: K"
            + " RabbitMQ nodes of the installed RabbitMQ clustered (quorum queue), HAProxy in"
            + " front of them (tcp) and of N server JVMs (http, leastconn), M consumer JVMs;"
            + " needs rabbitmq-server and haproxy installed.",
        "Default: single."
      })
  Topology topology = Topology.single;

  @Option(
      names = "--servers",
      paramLabel = "N",
      description = {"Server JVMs behind HAProxy (cluster only), 1 to 8.", "Default: 2."})
  int servers = 2;

  @Option(
      names = "--consumers",
      paramLabel = "M",
      description = {"Consumer JVMs (cluster only), 1 to 8.", "Default: 2."})
  int consumers = 2;

  @Option(
      names = "--broker-nodes",
      paramLabel = "K",
      description = {"RabbitMQ nodes of the cluster (cluster only), 1 to 5.", "Default: 3."})
  int brokerNodes = 3;

  @Option(
      names = "--bypass-balancer",
      description = {
        "Cluster only: the client sends to server 1 directly instead of through HAProxy (the"
            + " balancer's price, measured by bench/cluster-scale.sh).",
        "Default: off."
      })
  boolean bypassBalancer;

  @Option(
      names = "--autoscale",
      description = {
        "Cluster only: scale the server and consumer JVMs with the load, by deploy/aws's"
            + " target-tracking rule (local/README.md): servers on requests per server,"
            + " consumers on the write backlog per consumer; --servers and --consumers are the"
            + " least.",
        "Default: off."
      })
  boolean autoscale;

  @Option(
      names = "--max-servers",
      paramLabel = "N",
      description = {"With --autoscale: the most server JVMs, up to 8.", "Default: 4."})
  int maxServers = 4;

  @Option(
      names = "--max-consumers",
      paramLabel = "M",
      description = {"With --autoscale: the most consumer JVMs, up to 8.", "Default: 4."})
  int maxConsumers = 4;

  @Option(
      names = "--scale-period",
      paramLabel = "SECONDS",
      description = {
        "With --autoscale: the evaluation period, AWS's minute compressed (2 = 30x faster);"
            + " scale-out after 3 periods above target, scale-in after 15 below, a warm-up of 5.",
        "Default: 2."
      })
  int scalePeriod = 2;

  @Option(
      names = "--server-target",
      paramLabel = "REQUESTS",
      description = {
        "With --autoscale: requests per server per second the servers are held at"
            + " (the template's ServerRequestsPerTarget / 60).",
        "Default: 1000."
      })
  double serverTarget = 1000;

  @Option(
      names = "--consumer-target-latency",
      paramLabel = "SECONDS",
      description = {
        "With --autoscale: acceptable latency; the consumers are held at this many seconds of"
            + " backlog each (ConsumerTargetLatency).",
        "Default: 10."
      })
  double consumerTargetLatency = 10;

  @Option(
      names = "--consumer-message-millis",
      paramLabel = "MS",
      description = {
        "With --autoscale: one consumer's time per message (ConsumerMessageMillis); the target"
            + " backlog per consumer is the latency over it.",
        "Default: 1."
      })
  double consumerMessageMillis = 1;

  @Option(
      names = "--autoscale-timeline",
      paramLabel = "FILE",
      description = {
        "With --autoscale: the CSV of every period (instances, backlog, requests, decisions).",
        "Default: autoscale.csv in the client's --out, else albumstore-autoscale-<run>.csv here."
      })
  Path autoscaleTimeline;

  @Unmatched List<String> clientArgs = new ArrayList<>();

  /** The cluster's sizes, each within what one machine can hold. */
  void checkCluster() {
    check("--servers", servers, 8);
    check("--consumers", consumers, 8);
    check("--broker-nodes", brokerNodes, 5);
    if (autoscale) {
      check("--max-servers", maxServers, 8);
      check("--max-consumers", maxConsumers, 8);
      if (maxServers < servers || maxConsumers < consumers) {
        throw new IllegalArgumentException(
            "--max-servers and --max-consumers must be at least --servers and --consumers");
      }
      if (scalePeriod < 1
          || !(serverTarget > 0)
          || !(consumerTargetLatency > 0)
          || !(consumerMessageMillis > 0)) {
        throw new IllegalArgumentException("--scale-period must be >= 1 and the targets > 0");
      }
    }
  }

  private static void check(String option, int value, int max) {
    if (value < 1 || value > max) {
      throw new IllegalArgumentException(
          option + " must be between 1 and " + max + ", was " + value);
    }
  }
}
