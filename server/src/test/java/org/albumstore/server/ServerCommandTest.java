package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.server.internal.metrics.MetricsPort;
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
    assertThat(usage).contains(CommonSettings.AMQP_URI.defaultValue());
  }

  @Test
  void theFlagsBeforeTheBundleRenameStillWork() {
    ServerCommand cmd = new ServerCommand();
    new CommandLine(cmd).parseArgs("--publish-batch-max", "2", "--publish-batch-bytes", "4096");
    assertThat(cmd.overrides())
        .isEqualTo(
            Map.of(
                ServerSettings.PUBLISH_BUNDLE_MAX.variable(), "2",
                ServerSettings.PUBLISH_BUNDLE_BYTES.variable(), "4096"));
  }

  @Test
  void onlyGivenFlagsOverrideTheEnvironment() {
    ServerCommand cmd = new ServerCommand();
    new CommandLine(cmd)
        .parseArgs(
            "--port", "0", "--queue", "q1", "--publish-bundle-max", "1", "--db-password", "pw");
    assertThat(cmd.overrides())
        .isEqualTo(
            Map.of(
                CommonSettings.HTTP_PORT.variable(), "0",
                CommonSettings.QUEUE.variable(), "q1",
                ServerSettings.PUBLISH_BUNDLE_MAX.variable(), "1",
                CommonSettings.DB_PASSWORD.variable(), "pw"));
    ServerCommand none = new ServerCommand();
    new CommandLine(none).parseArgs();
    assertThat(none.overrides()).isEmpty();
  }

  @Test
  void theMetricsPortFlagsMapToTheirVariables() {
    ServerCommand cmd = new ServerCommand();
    new CommandLine(cmd).parseArgs("--metrics-port", "9090", "--metrics-address", "0.0.0.0");
    assertThat(cmd.overrides())
        .isEqualTo(
            Map.of(MetricsPort.PORT.variable(), "9090", MetricsPort.ADDRESS.variable(), "0.0.0.0"));
  }
}
