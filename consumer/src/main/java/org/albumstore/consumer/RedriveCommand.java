package org.albumstore.consumer;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;
import org.albumstore.common.config.SettingOptions;
import org.albumstore.consumer.internal.amqp.DeadLetterRedrive;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar albumstore-consumer.jar redrive [broker options]}: moves what the dead-letter
 * queue holds back to the write queue ({@link DeadLetterRedrive}), prints what it moved by reason,
 * and exits. Reads the same broker settings as the consumer.
 */
@Command(
    name = "redrive",
    modelTransformer = RedriveCommand.Options.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Moves the messages in each partition's dead-letter queue (<queue>.dlq, <queue>.1.dlq, ...)"
            + " back to that partition's write queue, for the consumers to apply (each once,"
            + " however often it is moved), then exits. Run it once the cause is gone, e.g. when"
            + " every consumer reads the servers' message version.")
final class RedriveCommand implements Callable<Integer> {
  static final List<Setting<?>> DECLARED = CommonSettings.BROKER;

  @Spec CommandSpec spec;

  /** Adds one option per broker setting. */
  static final class Options implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
      SettingOptions.addTo(commandSpec, DECLARED);
      return commandSpec;
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    final AmqpSettings amqp;
    try {
      amqp = AmqpSettings.from(Env.system().withOverrides(SettingOptions.given(spec, DECLARED)));
    } catch (IllegalArgumentException e) {
      return SettingOptions.refuse(spec, e);
    }
    try (Connection c = AmqpConnections.open(amqp, "albumstore-redrive")) {
      try (Channel ch = c.createChannel()) {
        Topology.declare(ch, amqp);
      }
      for (AmqpSettings.Partition p : Topology.depths(c, amqp).keySet()) {
        DeadLetterRedrive.Moved moved =
            DeadLetterRedrive.run(c, p, AlbumStoreConsumer.DEAD_LETTER_CONFIRM_MILLIS);
        out.printf(
            "moved %d messages from %s to %s%n", moved.messages(), p.deadLetterQueue(), p.queue());
        if (moved.alreadyMoved() > 0) {
          out.printf(
              "%8d  acknowledged without a copy: their message ID was already moved%n",
              moved.alreadyMoved());
        }
        moved.byReason().forEach((reason, n) -> out.printf("%8d  %s%n", n, reason));
        out.flush();
      }
      return CommandLine.ExitCode.OK;
    } catch (IOException | TimeoutException e) {
      err.println("redrive failed, what was not moved stays in the dead-letter queues: " + e);
      err.flush();
      return CommandLine.ExitCode.SOFTWARE;
    }
  }
}
