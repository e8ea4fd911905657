package org.albumstore.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class ServiceOptionsTest {
  @Command(name = "probe")
  static final class Probe implements Runnable {
    @Mixin ServiceOptions service = new ServiceOptions();

    @Override
    public void run() {}
  }

  private static Map<String, String> given(String... args) {
    Probe p = new Probe();
    new CommandLine(p).parseArgs(args);
    Map<String, String> m = new HashMap<>();
    p.service.putGiven(m);
    return m;
  }

  @Test
  void onlyTheFlagsGivenOverrideTheirVariables() {
    assertThat(given()).isEmpty();
    assertThat(given("--amqp-uri", "amqps://u:p@mq:5671/v", "--db-password", "s3cret"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(Keys.AMQP_URI, "amqps://u:p@mq:5671/v", Keys.DB_PASSWORD, "s3cret"));
    assertThat(
            given(
                "--queue=q",
                "--queue-type=quorum",
                "--jdbc-url=jdbc:postgresql://db/x",
                "--db-user=app"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                Keys.QUEUE, "q",
                Keys.QUEUE_TYPE, "quorum",
                Keys.JDBC_URL, "jdbc:postgresql://db/x",
                Keys.DB_USER, "app"));
  }

  @Test
  void theHelpStatesEveryDefaultAndPointsThePasswordToTheEnvironment() {
    assertThat(ServiceOptions.AMQP_URI_IN_HELP.replace("%%", "%")).isEqualTo(Defaults.AMQP_URI);
    String help = new CommandLine(new Probe()).setUsageHelpWidth(200).getUsageMessage();
    assertThat(help)
        .contains("Default: " + Defaults.AMQP_URI)
        .contains("Default: " + Defaults.QUEUE)
        .contains("Default: " + Defaults.QUEUE_TYPE)
        .contains("Default: " + Defaults.JDBC_URL)
        .contains("Default: " + Defaults.DB_USER)
        .contains("Default: empty")
        .contains("prefer the env variable " + Keys.DB_PASSWORD);
  }
}
