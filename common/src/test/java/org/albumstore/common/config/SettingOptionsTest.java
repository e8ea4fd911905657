package org.albumstore.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

class SettingOptionsTest {
  @Command(name = "probe", modelTransformer = Probe.Options.class)
  static final class Probe implements Runnable {
    @Spec CommandSpec spec;

    static final class Options implements IModelTransformer {
      @Override
      public CommandSpec transform(CommandSpec commandSpec) {
        SettingOptions.addTo(commandSpec, CommonSettings.SERVICE);
        return commandSpec;
      }
    }

    @Override
    public void run() {}
  }

  private static Map<String, String> given(String... args) {
    Probe p = new Probe();
    new CommandLine(p).parseArgs(args);
    return SettingOptions.given(p.spec, CommonSettings.SERVICE);
  }

  @Test
  void onlyTheFlagsGivenOverrideTheirVariables() {
    assertThat(given()).isEmpty();
    assertThat(given("--amqp-uri", "amqps://u:p@mq:5671/v", "--db-password", "s3cret"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                CommonSettings.AMQP_URI.variable(),
                "amqps://u:p@mq:5671/v",
                CommonSettings.DB_PASSWORD.variable(),
                "s3cret"));
    assertThat(
            given(
                "--queue=q",
                "--queue-type=quorum",
                "--jdbc-url=jdbc:postgresql://db/x",
                "--db-user=app",
                "--quorum-group-size=3"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                CommonSettings.QUEUE.variable(), "q",
                CommonSettings.QUEUE_TYPE.variable(), "quorum",
                CommonSettings.JDBC_URL.variable(), "jdbc:postgresql://db/x",
                CommonSettings.DB_USER.variable(), "app",
                CommonSettings.QUORUM_GROUP_SIZE.variable(), "3"));
  }

  @Test
  void aNumberFlagThatIsNoNumberIsAUsageErrorNamingTheFlag() {
    assertThatThrownBy(() -> given("--quorum-group-size", "three"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--quorum-group-size");
  }

  @Test
  void theHelpStatesEveryDefaultExactlyAndPointsThePasswordToTheEnvironment() {
    String help = new CommandLine(new Probe()).setUsageHelpWidth(200).getUsageMessage();
    assertThat(help)
        .contains("Default: " + CommonSettings.AMQP_URI.defaultValue() + ".")
        .contains("Default: " + CommonSettings.QUEUE.defaultValue() + ".")
        .contains("Default: " + CommonSettings.QUEUE_TYPE.defaultValue() + ".")
        .contains("Default: " + CommonSettings.JDBC_URL.defaultValue() + ".")
        .contains("Default: " + CommonSettings.DB_USER.defaultValue() + ".")
        .contains("Default: empty.")
        .contains("prefer the env variable " + CommonSettings.DB_PASSWORD.variable())
        .contains("(env " + CommonSettings.AMQP_URI.variable() + ")");
  }

  @Test
  void theHelpNeverShowsAValueFromTheEnvironment() {
    // Flags carry no default of their own: what --help states is the declared default only.
    for (var o : new CommandLine(new Probe()).getCommandSpec().options()) {
      assertThat(o.defaultValue()).as(o.longestName()).isNull();
    }
  }
}
