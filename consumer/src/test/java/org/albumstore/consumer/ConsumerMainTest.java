package org.albumstore.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.albumstore.common.config.CommonSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class ConsumerMainTest {

  @Test
  void everyOptionsHelpEndsWithItsDefault() {
    CommandLine cl = new CommandLine(new ConsumerMain());
    for (OptionSpec o : cl.getCommandSpec().options()) {
      if (o.usageHelp() || o.versionHelp()) {
        continue;
      }
      String text = String.join(" ", o.description());
      assertThat(text).as(o.longestName()).matches("(?s).*Default: [^ ]+( x channels)?\\.$");
    }
    String usage = cl.getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", "");
    assertThat(usage)
        .contains(
            CommonSettings.AMQP_URI.defaultValue(),
            CommonSettings.QUEUE.defaultValue(),
            CommonSettings.JDBC_URL.defaultValue());
  }

  @Test
  void flagsOverrideTheSettingOfTheSameMeaning() {
    ConsumerMain main = new ConsumerMain();
    new CommandLine(main)
        .parseArgs("--connections", "4", "--batch-size", "100", "--queue", "q1", "--init-schema");
    assertThat(main.overrides())
        .containsEntry(ConsumerSettings.CONNECTIONS.variable(), "4")
        .containsEntry(ConsumerSettings.BATCH_SIZE.variable(), "100")
        .containsEntry(CommonSettings.QUEUE.variable(), "q1")
        .containsEntry(ConsumerSettings.INIT_SCHEMA.variable(), "true")
        .doesNotContainKey(ConsumerSettings.PREFETCH.variable());
  }

  @Test
  void invalidSettingExitsWithUsageCodeAndNamesTheSetting() {
    StringWriter err = new StringWriter();
    int code =
        new CommandLine(new ConsumerMain())
            .setErr(new PrintWriter(err))
            .execute("--prefetch", "10", "--batch-size", "20");
    assertThat(code).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(err.toString())
        .contains(ConsumerSettings.BATCH_SIZE.variable(), ConsumerSettings.PREFETCH.variable());
  }

  @Test
  void redriveReadsTheBrokerSettingsAndRefusesAnInvalidOneAsAUsageError() {
    StringWriter err = new StringWriter();
    int code =
        new CommandLine(new ConsumerMain())
            .setErr(new PrintWriter(err))
            .execute("redrive", "--quorum-group-size", "100");
    assertThat(code).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(err.toString()).contains(CommonSettings.QUORUM_GROUP_SIZE.variable());
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-2", "33"})
  void aBadPartitionCountIsRefusedAtStartInOneLine(String partitions) {
    StringWriter err = new StringWriter();
    int code =
        new CommandLine(new ConsumerMain())
            .setErr(new PrintWriter(err))
            .execute("--queue-partitions", partitions);
    assertThat(code).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(err.toString().strip().lines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains(CommonSettings.QUEUE_PARTITIONS.variable(), "between 1 and 32");
  }
}
