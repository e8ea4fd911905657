package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alerting and recording rules of {@code observability/rules/} as part of the build: {@code
 * promtool check rules} (syntax, PromQL, templates) and {@code promtool test rules} (the unit tests
 * beside them: for every alert, a case that fires and one that does not). promtool comes with
 * Prometheus ({@code apt-get install prometheus}); without it these skip with one line off CI and
 * fail on CI ({@link ExternalTools}). The unit tests are proven able to fail on a planted bug.
 */
class PrometheusRulesIT {
  static final Path OBSERVABILITY =
      Path.of(System.getProperty("albumstore.it.deployDir", ".")).resolve("observability");
  static final Path RULES = OBSERVABILITY.resolve("rules/albumstore.rules.yml");
  private static final Path TESTS = OBSERVABILITY.resolve("rules/albumstore.rules.test.yml");
  private static final Path LOG =
      Path.of(System.getProperty("albumstore.it.workDir", "target"), "it-logs", "promtool.log");
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final int UNIT_TEST_RUNS = 10;
  private static final Pattern ALERT = Pattern.compile("(?m)^\\s+- alert: (\\w+)$");

  @Test
  void promtoolAcceptsTheRules() throws Exception {
    Scripts.Result r = promtool("check", "rules", RULES.toString());

    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS: " + ruleCount() + " rules found");
  }

  /**
   * Run several times: promtool evaluates rule groups in map order unless the test file pins it
   * ({@code group_eval_order}), and an alert reading a recording rule then passed in most runs and
   * failed in some.
   */
  @Test
  void everyAlertsUnitTestsPass() throws Exception {
    for (int run = 1; run <= UNIT_TEST_RUNS; run++) {
      Scripts.Result r = promtool("test", "rules", TESTS.toString());

      assertThat(r.exitCode()).as("run %d: %s", run, r.output()).isZero();
      assertThat(r.output()).contains("SUCCESS");
    }
  }

  /** The completeness the test file promises, checked rather than trusted. */
  @Test
  void everyAlertHasACaseThatFiresAndOneThatDoesNot() throws Exception {
    String tests = Files.readString(TESTS);
    for (String alert : alerts()) {
      List<String> cases = casesOf(tests, alert);
      assertThat(cases).as("unit tests of %s", alert).isNotEmpty();
      assertThat(cases).as("%s never expected to fire", alert).anyMatch(c -> !c.isEmpty());
      assertThat(cases).as("%s never expected to stay quiet", alert).anyMatch(String::isEmpty);
    }
  }

  /**
   * The unit tests can fail: with the fast burn's factor 10x too high (a typo in a threshold), the
   * case where 10 % of writes fail must no longer see the alert, and promtool says so.
   */
  @Test
  void aPlantedThresholdBugFailsTheUnitTests(@TempDir Path dir) throws Exception {
    String rules = Files.readString(RULES);
    String fast = "albumstore:write_errors:ratio_rate1h > (14.4 * 0.001)";
    assertThat(rules).contains(fast);
    Files.writeString(
        dir.resolve(RULES.getFileName().toString()),
        rules.replace(fast, fast.replace("14.4", "144")));
    Path tests = Files.copy(TESTS, dir.resolve(TESTS.getFileName().toString()));

    Scripts.Result r = promtool("test", "rules", tests.toString());

    assertThat(r.exitCode()).as(r.output()).isNotZero();
    assertThat(r.output()).contains("FAILED").contains("alertname: WriteErrorBudgetBurnFast");
  }

  static List<String> alerts() throws Exception {
    List<String> names = new ArrayList<>();
    Matcher m = ALERT.matcher(Files.readString(RULES));
    while (m.find()) {
      names.add(m.group(1));
    }
    assertThat(names).as("alerts in %s", RULES).hasSizeGreaterThanOrEqualTo(10);
    return names;
  }

  private static long ruleCount() throws Exception {
    return Files.readString(RULES)
        .lines()
        .filter(l -> l.matches("\\s+- (record|alert): .+"))
        .count();
  }

  /**
   * The expectations of every {@code alert_rule_test} entry for {@code alert} in the test file: the
   * text of its {@code exp_alerts}, empty for {@code exp_alerts: []}.
   */
  private static List<String> casesOf(String tests, String alert) {
    List<String> cases = new ArrayList<>();
    Matcher m =
        Pattern.compile(
                "alertname: "
                    + Pattern.quote(alert)
                    + "\\n\\s+exp_alerts:(.*?)(?=\\n\\s+- eval_time:|\\n\\s*\\n|\\n  - interval:|\\z)",
                Pattern.DOTALL)
            .matcher(tests);
    while (m.find()) {
      String body = m.group(1).strip();
      cases.add(body.equals("[]") ? "" : body);
    }
    return cases;
  }

  private static Scripts.Result promtool(String... args) throws Exception {
    Map<String, String> env = Scripts.cleanEnvironment();
    Path promtool =
        ExternalTools.of(env).require("promtool", "the check and unit tests of the alert rules");
    List<String> command = new ArrayList<>(List.of(promtool.toString()));
    command.addAll(List.of(args));
    return Scripts.run(command, env, LOG, TIMEOUT);
  }
}
