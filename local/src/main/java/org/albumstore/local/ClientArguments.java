package org.albumstore.local;

import java.util.ArrayList;
import java.util.List;
import org.albumstore.client.ClientSettings;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.Setting;
import org.albumstore.embedded.Source;

/**
 * The load client's command line: first what the launcher knows about the started stack, then the
 * user's arguments unchanged. The client lets the last occurrence of an option win, so anything the
 * user gives overrides the launcher's choice without the launcher having to understand it.
 */
final class ClientArguments {
  /** Sized for a laptop: enough to keep two cores busy, few enough to finish in about a minute. */
  static final int DEFAULT_THREADS = 64;

  /** The local RabbitMQ's management API: the client's default is where the local broker has it. */
  static final String LOCAL_MANAGEMENT_API = ClientSettings.RMQ_API.defaultValue();

  private static final List<String> THREAD_OPTIONS =
      List.of("--threads", "--group-size", "--groups");

  private ClientArguments() {}

  /**
   * @param baseUrl the started server's base URL
   * @param amqp the resolved broker and queue
   * @param brokerSource where the broker came from: only a local RabbitMQ is known to have the
   *     management API at {@value #LOCAL_MANAGEMENT_API}; Qpid has none, and for a configured
   *     broker only the user knows where it is (they set the client's {@code ALBUMSTORE_RMQ_API})
   * @param rmqApiConfigured whether that variable is set, in which case the client reads it
   * @param serverMetricsUrl the started server's {@code /metrics}: passed on only when it is not
   *     the client's default (the base URL's), i.e. when the server serves them on a management
   *     port
   * @param consumerMetricsUrl the started consumer's {@code /metrics}, or null when it serves none
   * @param userArgs the user's client arguments, in order
   */
  static List<String> build(
      String baseUrl,
      AmqpSettings amqp,
      Source brokerSource,
      boolean rmqApiConfigured,
      String serverMetricsUrl,
      String consumerMetricsUrl,
      List<String> userArgs) {
    return build(
        baseUrl,
        amqp,
        brokerSource == Source.LOCAL ? LOCAL_MANAGEMENT_API : ClientSettings.OFF,
        rmqApiConfigured,
        serverMetricsUrl,
        consumerMetricsUrl,
        userArgs);
  }

  /**
   * As above, for a broker whose management API the launcher knows ({@code managementApi}, or
   * {@code none}): the cluster's, which it started itself.
   */
  static List<String> build(
      String baseUrl,
      AmqpSettings amqp,
      String managementApi,
      boolean rmqApiConfigured,
      String serverMetricsUrl,
      String consumerMetricsUrl,
      List<String> userArgs) {
    List<String> args = new ArrayList<>();
    add(args, ClientSettings.URL, baseUrl);
    add(args, ClientSettings.QUEUE, amqp.queue());
    add(args, ClientSettings.AMQP_URI, amqp.uri());
    if (!rmqApiConfigured) {
      add(args, ClientSettings.RMQ_API, managementApi);
    }
    if (!serverMetricsUrl.equals(baseUrl + "/metrics")) {
      add(args, ClientSettings.SERVER_METRICS, serverMetricsUrl);
    }
    // The client's default is the consumer jar's port; this consumer is in the launcher's JVM.
    add(
        args,
        ClientSettings.CONSUMER_METRICS,
        consumerMetricsUrl != null ? consumerMetricsUrl : ClientSettings.OFF);
    if (!choosesThreads(userArgs)) {
      args.add("--threads");
      args.add(Integer.toString(DEFAULT_THREADS));
    }
    args.addAll(userArgs);
    return args;
  }

  private static void add(List<String> args, Setting<String> setting, String value) {
    args.add(setting.flag());
    args.add(value);
  }

  /** Whether the user sized the load themselves ({@code --threads 8}, {@code --groups=3}, ...). */
  static boolean choosesThreads(List<String> userArgs) {
    for (String a : userArgs) {
      if (a.equals("--")) {
        continue;
      }
      for (String option : THREAD_OPTIONS) {
        if (a.equals(option) || a.startsWith(option + "=")) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The arguments as they may be shown: the broker URI and any {@code --rmq-password} value masked.
   */
  static String display(List<String> args) {
    List<String> shown = new ArrayList<>(args.size());
    boolean maskNext = false;
    for (String a : args) {
      if (maskNext) {
        shown.add("***");
        maskNext = false;
      } else if (a.equals(ClientSettings.RMQ_PASSWORD.flag())) {
        shown.add(a);
        maskNext = true;
      } else if (a.startsWith(ClientSettings.RMQ_PASSWORD.flag() + "=")) {
        shown.add(ClientSettings.RMQ_PASSWORD.flag() + "=***");
      } else {
        shown.add(a.replaceFirst("://([^:/@]*):[^@/]*@", "://$1:***@"));
      }
    }
    return String.join(" ", shown);
  }
}
