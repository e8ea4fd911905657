package org.albumstore.consumer.scaling;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import org.albumstore.common.amqp.ManagementApi;
import org.albumstore.common.amqp.WriteBacklog;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;
import org.albumstore.common.config.SettingOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code java -cp albumstore-consumer.jar org.albumstore.consumer.scaling.WriteBacklogMain --stack
 * NAME}: reads the write stream's backlog once ({@link WriteBacklog}) and prints the one line that
 * {@code aws cloudwatch put-metric-data --cli-input-json} takes to publish it as {@code
 * AlbumStore/WriteBacklog} with the dimension {@code StackName}, the metric the consumers' scaling
 * policy divides by the consumers in service. A scheduler runs it once a minute (Amazon MQ asks
 * that its management API be read no more often). The vhost is {@code /}.
 *
 * <p>Exit code 0 with the line on stdout; 1 when the backlog cannot be read (a message on stderr,
 * nothing on stdout, so that no wrong figure is published); 2 usage.
 *
 * <p>Not public: a runnable, named on the command line only; no other module uses it.
 */
@Command(
    name = "org.albumstore.consumer.scaling.WriteBacklogMain",
    modelTransformer = WriteBacklogMain.Options.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Prints the write stream's backlog (ready plus unacknowledged messages over every"
            + " partition, the .dlq queues left out) as CloudWatch PutMetricData JSON for 'aws"
            + " cloudwatch put-metric-data --cli-input-json'.")
final class WriteBacklogMain implements Callable<Integer> {
  static final String NAMESPACE = "AlbumStore";
  static final String METRIC = "WriteBacklog";
  static final String DIMENSION = "StackName";
  private static final String VHOST = "/";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What it reads, each from its variable or flag. */
  static final List<Setting<?>> DECLARED =
      List.of(
          CommonSettings.RMQ_API,
          CommonSettings.RMQ_USER,
          CommonSettings.RMQ_PASSWORD,
          CommonSettings.QUEUE,
          CommonSettings.QUEUE_PARTITIONS);

  /** Adds one option per setting of {@link #DECLARED}. */
  static final class Options implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
      SettingOptions.addTo(commandSpec, DECLARED);
      return commandSpec;
    }
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--stack",
      required = true,
      paramLabel = "NAME",
      description = "The stack's name: the metric's StackName dimension.")
  String stack;

  public static void main(String[] args) {
    System.exit(new CommandLine(new WriteBacklogMain()).execute(args));
  }

  @Override
  public Integer call() {
    Env env = Env.system().withOverrides(SettingOptions.given(spec, DECLARED));
    final WriteBacklog backlog;
    final String api;
    try {
      api = CommonSettings.RMQ_API.read(env);
      backlog =
          new WriteBacklog(
              new ManagementApi(
                  api,
                  VHOST,
                  CommonSettings.RMQ_USER.read(env),
                  CommonSettings.RMQ_PASSWORD.read(env)),
              CommonSettings.QUEUE.read(env),
              CommonSettings.QUEUE_PARTITIONS.read(env));
    } catch (IllegalArgumentException e) {
      return SettingOptions.refuse(spec, e);
    }
    try {
      spec.commandLine().getOut().println(putMetricData(stack, backlog.read()));
      spec.commandLine().getOut().flush();
      return 0;
    } catch (IOException | RuntimeException e) {
      spec.commandLine()
          .getErr()
          .println("WriteBacklogMain: cannot read the backlog from " + api + ": " + e.getMessage());
      return 1;
    }
  }

  /** The input of {@code aws cloudwatch put-metric-data --cli-input-json}, on one line. */
  static String putMetricData(String stack, long backlog) {
    ObjectNode root = JSON.createObjectNode();
    root.put("Namespace", NAMESPACE);
    ObjectNode datum = root.putArray("MetricData").addObject();
    datum.put("MetricName", METRIC);
    ArrayNode dimensions = datum.putArray("Dimensions");
    dimensions.addObject().put("Name", DIMENSION).put("Value", stack);
    datum.put("Value", backlog);
    datum.put("Unit", "Count");
    return root.toString();
  }
}
