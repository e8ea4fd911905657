package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.albumstore.common.config.Defaults;
import org.albumstore.common.config.Keys;
import org.albumstore.server.metrics.MetricsPort;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class ServerCommandTest {

  @Test
  void everyOptionsHelpEndsWithItsDefault() {
    CommandLine cl = new CommandLine(new ServerCommand());
    for (OptionSpec o : cl.getCommandSpec().options()) {
      if (o.usageHelp() || o.versionHelp()) {
        continue;
      }
      String help = String.join(" ", o.description());
      assertThat(help).as(o.longestName()).matches("(?s).*Default: \\S+$");
    }
  }

  @Test
  void theHelpShowsTheRealBrokerDefault() {
    String usage = new CommandLine(new ServerCommand()).getUsageMessage().replaceAll("\\s+", "");
    assertThat(usage).contains(Defaults.AMQP_URI);
  }

  @Test
  void onlyGivenFlagsOverrideTheEnvironment() {
    ServerCommand cmd = new ServerCommand();
    new CommandLine(cmd)
        .parseArgs(
            "--port", "0", "--queue", "q1", "--publish-batch-max", "1", "--db-password", "pw");
    assertThat(cmd.overrides())
        .isEqualTo(
            Map.of(
                Keys.HTTP_PORT, "0",
                Keys.QUEUE, "q1",
                ServerSettings.PUBLISH_BATCH_MAX, "1",
                Keys.DB_PASSWORD, "pw"));
    ServerCommand none = new ServerCommand();
    new CommandLine(none).parseArgs();
    assertThat(none.overrides()).isEmpty();
  }

  @Test
  void theMetricsPortFlagsMapToTheirVariables() {
    ServerCommand cmd = new ServerCommand();
    new CommandLine(cmd).parseArgs("--metrics-port", "9090", "--metrics-address", "0.0.0.0");
    assertThat(cmd.overrides())
        .isEqualTo(Map.of(MetricsPort.PORT, "9090", MetricsPort.ADDRESS, "0.0.0.0"));
  }
}
