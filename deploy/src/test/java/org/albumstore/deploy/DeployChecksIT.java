package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.albumstore.embedded.testing.ExternalTools;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check.sh}, the static checks of this folder, as part of the build: shellcheck on every
 * script, cfn-lint (AWS's linter, against AWS's resource schemas) on the CloudFormation template
 * once per parameter combination the README offers, server.xml well-formed. A linter that is not
 * installed is skipped with one line off CI and fails the build on CI ({@link ExternalTools}), and
 * check.sh itself follows the same rule, proven here on a PATH without the linters.
 */
class DeployChecksIT {
  private static final Path DEPLOY_DIR =
      Path.of(System.getProperty("albumstore.it.deployDir", "."));
  private static final Path LOG =
      Path.of(System.getProperty("albumstore.it.workDir", "target"), "it-logs", "check.log");
  private static final Path TEMPLATE = DEPLOY_DIR.resolve("aws/template.yaml");
  private static final Path RULES = DEPLOY_DIR.resolve("aws/cfn-lint-rules");
  private static final Duration TIMEOUT = Duration.ofMinutes(4);
  private static final String LINT = "cfn-lint: aws/template.yaml: ";

  /** One per combination check.sh lints: every README scenario must be among them. */
  private static final List<String> COMBINATIONS =
      List.of(
          "all condition combinations",
          "defaults: single-instance broker, quorum queue, one server",
          "single-instance broker, classic queue (QueueType=classic)",
          "SSH key pair and a chosen broker name",
          "3 servers behind the ALB (UseLoadBalancer=true ServerCount=3)",
          "3-node broker cluster with quorum queues"
              + " (BrokerDeploymentMode=CLUSTER_MULTI_AZ QueueType=quorum)",
          "3-node broker cluster, 3 queue partitions"
              + " (BrokerDeploymentMode=CLUSTER_MULTI_AZ QueueType=quorum QueuePartitions=3)",
          "RabbitMQ 3.13 on mq.m5.large",
          "RabbitMQ 4.2 cluster, quorum queues, ALB",
          "smoke test: mq.t3.micro broker",
          "RDS Multi-AZ (a synchronous standby) (DbMultiAZ=true)",
          "PostgreSQL 16 (DbEngineVersion=16)",
          "larger instances",
          "servers scaled on requests per target",
          "consumers scaled on backlog per consumer",
          "both tiers scaled, RabbitMQ 4.2 cluster",
          "consumers scaled to the mq.t3.micro connection limit");

  /** A combination the template forbids, and the finding cfn-lint gives for it. */
  private static final Map<String, String> FORBIDDEN =
      Map.ofEntries(
          Map.entry(
              "UseLoadBalancer=false ServerCount=3",
              "E9101 Rule SeveralServersNeedTheLoadBalancer fails"),
          Map.entry("BrokerInstanceType=mq.m5.large", "E9101 Rule RabbitMq4NeedsM7g fails"),
          Map.entry(
              "BrokerEngineVersion=3.13 BrokerInstanceType=mq.t3.micro"
                  + " BrokerDeploymentMode=CLUSTER_MULTI_AZ",
              "E9101 Rule MicroBrokerIsSingleInstance fails"),
          Map.entry(
              "BrokerDeploymentMode=CLUSTER_MULTI_AZ QueueType=classic",
              "E9101 Rule ClusterNeedsQuorumQueues fails"),
          Map.entry(
              "BrokerName=a-broker-name-of-51-characters-is-one-too-many-xxxx",
              "E9102 BrokerName='a-broker-name-of-51-characters-is-one-too-many-xxxx'"),
          Map.entry("BrokerName=albumstore.broker", "E9102 BrokerName='albumstore.broker'"),
          Map.entry("QueuePartitions=0", "E9102 QueuePartitions='0' is below MinValue 1"),
          Map.entry("QueuePartitions=33", "E9102 QueuePartitions='33' is above MaxValue 32"),
          Map.entry(
              "BrokerEngineVersion=3.13 BrokerInstanceType=mq.m5.xlarge",
              "E2900 'mq.m5.xlarge' is not one of"),
          Map.entry("BrokerEngineVersion=3.12", "E2900 '3.12' is not one of"),
          Map.entry(
              "UseLoadBalancer=false ServerMaxCount=4",
              "E9101 Rule ServerScalingNeedsTheLoadBalancer fails"),
          Map.entry(
              "UseLoadBalancer=true ServerCount=3 ServerMaxCount=2",
              "E9101 Rule ServerMaxNotBelowServerCount fails: ServerMaxCount=2"),
          Map.entry(
              "ConsumerCount=3 ConsumerMaxCount=2",
              "E9101 Rule ConsumerMaxNotBelowConsumerCount fails: ConsumerMaxCount=2"),
          Map.entry(
              "BrokerEngineVersion=3.13 BrokerInstanceType=mq.t3.micro ConsumerMaxCount=8"
                  + " ConsumerConnections=54",
              "E9101 Rule ConsumerConnectionsFitTheBroker fails: ConsumerMaxCount=8 on mq.t3.micro"),
          Map.entry(
              "ConsumerMaxCount=32 ConsumerConnections=43",
              "E9101 Rule ConsumerConnectionsFitTheBroker fails: ConsumerMaxCount=32 on mq.m7g.large"),
          Map.entry("ConsumerMaxCount=5", "E2900 '5' is not one of"));

  /** What check.sh runs besides the linters and java: bash and a few coreutils. */
  private static final List<String> BASICS =
      List.of("bash", "dirname", "find", "sort", "mktemp", "cat", "rm");

  @Test
  void checkShPassesEveryInstalledLinterAndReportsNothingElse() throws Exception {
    Map<String, String> env = Scripts.cleanEnvironment();
    ExternalTools tools = ExternalTools.of(env);
    tools.require("bash", "deploy/check.sh (a bash script)");
    boolean shellcheck = tools.available("shellcheck", "lint of deploy's shell scripts");
    boolean cfnLint = tools.available("cfn-lint", "lint of the CloudFormation template");

    Scripts.Result r = checkSh(env);

    assertThat(r.exitCode()).as("deploy/check.sh failed:\n%s", r.output()).isZero();
    List<String> expected = new ArrayList<>();
    if (shellcheck) {
      expected.add("shellcheck: " + ourScripts() + " scripts");
    }
    if (cfnLint) {
      COMBINATIONS.forEach(c -> expected.add(LINT + c));
    }
    expected.add("server.xml: well-formed");
    expected.add(
        shellcheck && cfnLint ? "deploy/check.sh: all checks passed" : "deploy/check.sh: passed");
    List<String> lines = r.output().lines().toList();
    for (String line : expected) {
      assertThat(lines).as(r.output()).anyMatch(l -> l.startsWith(line));
    }
    // Anything else (a cfn-lint warning or notice, a shellcheck remark) is a finding.
    assertThat(lines)
        .as("deploy/check.sh printed something besides its result lines:\n%s", r.output())
        .allMatch(
            l ->
                l.startsWith("shellcheck: ")
                    || l.startsWith(LINT)
                    || l.startsWith("check.sh: SKIPPED ")
                    || l.equals("server.xml: well-formed")
                    || l.startsWith("deploy/check.sh: "));
    if (cfnLint) {
      assertThat(lines.stream().filter(l -> l.startsWith(LINT))).hasSize(COMBINATIONS.size());
    }
  }

  @Test
  void withoutTheLintersCheckShSkipsThemWithOneLineEachOffCiAndFailsOnCi(@TempDir Path bin)
      throws Exception {
    Map<String, String> env = Scripts.cleanEnvironment();
    ExternalTools tools = ExternalTools.of(env);
    tools.requireThat(
        FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
        "a POSIX file system (symbolic links to the basic tools)",
        "check.sh on a PATH without the linters");
    for (String tool : BASICS) {
      Path real = tools.require(tool, "check.sh on a PATH without the linters").toRealPath();
      Files.createSymbolicLink(bin.resolve(tool), real);
    }
    Map<String, String> bare = new HashMap<>(env);
    bare.put("PATH", bin.toString());
    bare.remove(ExternalTools.CI_VARIABLE);

    Scripts.Result offCi = checkSh(bare);
    assertThat(offCi.exitCode()).as(offCi.output()).isZero();
    assertThat(offCi.output().lines())
        .contains(
            "check.sh: SKIPPED the lint of the deploy scripts: shellcheck is not installed"
                + " (with CI=true this fails)",
            "check.sh: SKIPPED the lint of aws/template.yaml: cfn-lint is not installed"
                + " (with CI=true this fails)",
            "server.xml: well-formed",
            "deploy/check.sh: passed, without shellcheck cfn-lint (not installed)");

    bare.put(ExternalTools.CI_VARIABLE, "true");
    Scripts.Result onCi = checkSh(bare);
    assertThat(onCi.exitCode()).as(onCi.output()).isNotZero();
    assertThat(onCi.output())
        .contains("deploy/check.sh: FAILED: CI=true and not installed: shellcheck cfn-lint")
        .doesNotContain("SKIPPED");
  }

  /**
   * The lint can fail: on the defect that made CloudFormation reject the stack, an unquoted comma
   * in a flow mapping, which ends the value and adds an unknown property.
   */
  @Test
  void cfnLintRejectsTheUnquotedCommaThatBrokeTheStack(@TempDir Path dir) throws Exception {
    Map<String, String> env = Scripts.cleanEnvironment();
    ExternalTools.of(env).require("cfn-lint", "the proof that cfn-lint finds template defects");
    String text = Files.readString(TEMPLATE);
    String quoted = "Description: \"psql (schema, checks) from the client\"}";
    assertThat(text).contains(quoted);
    Path broken =
        Files.writeString(
            dir.resolve("template.yaml"), text.replace(quoted, quoted.replace("\"", "")));

    Scripts.Result r = cfnLint(env, broken.toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.output()).contains("E3002").contains("checks) from the client");
  }

  /**
   * A combination the template forbids fails before anything is created: CloudFormation checks
   * AllowedValues, AllowedPattern and Rules first. Offline, cfn-lint checks the AllowedValues
   * (E2900) and the resource schemas (W1030), and this project's rules (aws/cfn-lint-rules) the
   * Rules (E9101) and AllowedPattern (E9102). Each combination goes in as check.sh passes its own,
   * a deployment file (the template and its parameters), so this also proves that check.sh's
   * combinations are checked with their values; and all in one cfn-lint process, as check.sh runs
   * them (loading AWS's schemas is most of a run). Each finding is one only its own combination can
   * give (it names the value, or a rule only that combination breaks), and must appear once.
   */
  @Test
  void cfnLintRejectsEachCombinationTheTemplateForbids(@TempDir Path dir) throws Exception {
    Map<String, String> env = Scripts.cleanEnvironment();
    ExternalTools.of(env).require("cfn-lint", "the proof that forbidden parameters are rejected");
    List<String> args =
        new ArrayList<>(List.of("--append-rules", RULES.toString(), "--deployment-files"));
    List<String> combinations = List.copyOf(FORBIDDEN.keySet());
    for (int i = 0; i < combinations.size(); i++) {
      args.add(deploymentFile(dir.resolve("forbidden-" + i + ".yaml"), combinations.get(i)));
    }

    Scripts.Result r = cfnLint(env, args.toArray(String[]::new));

    assertThat(r.exitCode()).as(r.output()).isNotZero();
    SoftAssertions.assertSoftly(
        soft ->
            FORBIDDEN.forEach(
                (values, finding) ->
                    soft.assertThat(r.output().split(Pattern.quote(finding), -1).length - 1)
                        .as("findings \"%s\" for %s in:%n%s", finding, values, r.output())
                        .isEqualTo(1)));
  }

  /** A deployment file: the template, the parameters every run needs, then {@code values}. */
  private static String deploymentFile(Path file, String values) throws IOException {
    List<String> deployment = new ArrayList<>();
    deployment.add("template-file-path: " + TEMPLATE.toAbsolutePath());
    deployment.add("parameters:");
    List<String> given = new ArrayList<>(List.of("AllowedCidr=203.0.113.7/32"));
    given.add("ArtifactBucket=albumstore-artifacts");
    given.addAll(List.of(values.split(" ")));
    for (String value : given) {
      String[] nameAndValue = value.split("=", 2);
      deployment.add("  " + nameAndValue[0] + ": '" + nameAndValue[1] + "'");
    }
    return Files.write(file, deployment).toString();
  }

  private static Scripts.Result checkSh(Map<String, String> env) throws Exception {
    return Scripts.run(
        List.of("bash", DEPLOY_DIR.resolve("check.sh").toString()), env, LOG, TIMEOUT);
  }

  private static Scripts.Result cfnLint(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("cfn-lint"));
    command.addAll(List.of(args));
    return Scripts.run(command, env, LOG, Duration.ofMinutes(1));
  }

  /** The scripts of this folder, not those of the Tomcat distributions unpacked in target/. */
  private static long ourScripts() throws IOException {
    Path target = DEPLOY_DIR.resolve("target");
    try (Stream<Path> files = Files.walk(DEPLOY_DIR)) {
      return files
          .filter(f -> !f.startsWith(target) && f.toString().endsWith(".sh"))
          .filter(Files::isRegularFile)
          .count();
    }
  }
}
