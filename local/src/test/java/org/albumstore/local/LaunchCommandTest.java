package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LaunchCommandTest {
  private static LaunchCommand parse(String... args) {
    LaunchCommand c = new LaunchCommand();
    new CommandLine(c).parseArgs(args);
    return c;
  }

  @Test
  void optionsTheLauncherDoesNotKnowGoToTheClientInOrderWithTheirValues() {
    LaunchCommand c =
        parse("--threads", "8", "--embedded", "--iterations=5", "--no-verify", "--out", "x");
    assertThat(c.embedded).isTrue();
    assertThat(c.port()).isNull();
    assertThat(c.clientArgs)
        .containsExactly("--threads", "8", "--iterations=5", "--no-verify", "--out", "x");
  }

  @Test
  void everythingAfterTheSeparatorGoesToTheClientEvenALauncherOption() {
    LaunchCommand c = parse("--port", "9090", "--", "--embedded", "--threads", "2");
    assertThat(c.port()).isEqualTo(9090);
    assertThat(c.embedded).isFalse();
    assertThat(c.clientArgs).containsExactly("--embedded", "--threads", "2");
  }

  @Test
  void withoutArgumentsNothingIsPassedAndLocalPartsAreAllowed() {
    LaunchCommand c = parse();
    assertThat(c.embedded).isFalse();
    assertThat(c.port()).isNull();
    assertThat(c.clientArgs).isEmpty();
  }

  @Test
  void helpShowsTheLauncherOptionsWithDefaultsAndThenTheClientOptions() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        LocalMain.run(
            Env.of(Map.of()),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err,
            "--help");
    String help = out.toString(StandardCharsets.UTF_8);
    assertThat(code).isZero();
    assertThat(help)
        .contains("--embedded", "Default: off.", "--port", "Default: 0.")
        .contains("Load client options (passed through):", "--iterations", "--rmq-api");
  }

  @Test
  void aBadPortIsAUsageErrorNamingTheOption() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        LocalMain.run(
            Env.of(Map.of()),
            System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "--port",
            "eighty");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--port");
  }
}
