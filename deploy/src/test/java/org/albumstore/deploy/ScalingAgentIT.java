package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aws/albumstore-scaling.sh}, the script itself, against a fake instance metadata service
 * (IMDSv2 on loopback, which answers only with the token it issued) and a fake {@code aws} and stop
 * command first on PATH, which record each call in order.
 *
 * <p>The termination hook's handler must call nothing while the instance is in service, and once
 * Auto Scaling is to terminate it, stop the service (the stop must have returned) before it
 * completes the hook, and keep completing while Auto Scaling refuses (a server is held only after
 * its deregistration delay). Two planted bugs prove that the checks see each fault. The backlog
 * publisher must publish from the lowest in-service instance only.
 */
class ScalingAgentIT {
  private static final Path SCRIPT =
      Path.of(System.getProperty("albumstore.it.deployDir", "."), "aws", "albumstore-scaling.sh");
  private static final Path LOG =
      Path.of(System.getProperty("albumstore.it.workDir", "target"), "it-logs", "scaling.log");
  private static final String INSTANCE = "i-0123456789abcdef0";
  private static final String GROUP = "albumstore-ConsumerGroup-1A2B3C";
  private static final String UNIT = "albumstore-consumer.service";
  private static final String COMPLETE =
      "aws autoscaling complete-lifecycle-action --lifecycle-action-result CONTINUE"
          + " --lifecycle-hook-name albumstore-drain --auto-scaling-group-name "
          + GROUP
          + " --instance-id "
          + INSTANCE;
  private static final Duration BOUND = Duration.ofSeconds(30);

  @TempDir Path dir;
  private FakeImds imds;
  private Map<String, String> env;
  private Path calls;

  @BeforeEach
  void fakes() throws IOException {
    env = Scripts.cleanEnvironment();
    ExternalTools tools = ExternalTools.of(env);
    tools.require("bash", "albumstore-scaling.sh (a bash script)");
    tools.require("curl", "albumstore-scaling.sh's instance metadata requests");
    tools.require("timeout", "albumstore-scaling.sh's bounded stop");
    imds = FakeImds.start(INSTANCE);
    calls = dir.resolve("calls.log");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    executable(bin.resolve("aws"), FAKE_AWS);
    executable(bin.resolve("fake-stop"), FAKE_STOP);
    executable(bin.resolve("fake-backlog"), FAKE_BACKLOG);
    env.put("PATH", bin + File.pathSeparator + env.get("PATH"));
    env.put("FAKE_CALLS", calls.toString());
    env.put("FAKE_GROUP", GROUP);
    env.put("STACK_REGION", "us-east-1");
    env.put("STACK_NAME", "albumstore");
    env.put("ALBUMSTORE_IMDS", imds.url());
    env.put("ALBUMSTORE_DRAIN_POLL_SECONDS", "0.2");
    env.put("ALBUMSTORE_DRAIN_STOP", "fake-stop " + UNIT);
    env.put("ALBUMSTORE_BACKLOG_COMMAND", "fake-backlog --stack albumstore");
  }

  @AfterEach
  void stopImds() {
    imds.stop();
  }

  @Test
  void drainCallsNothingInServiceThenStopsTheServiceBeforeItCompletesTheHook() throws Exception {
    // Auto Scaling refuses the first completion, as it does before the hook holds the instance.
    Files.writeString(dir.resolve("refusals"), "1");

    Drain run = drain(SCRIPT);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(problems(run)).as(run.output()).isEmpty();
    assertThat(run.afterTermination())
        .containsExactly(
            "stop " + UNIT + " begin",
            "stop " + UNIT + " end",
            "aws autoscaling describe-auto-scaling-instances --instance-ids "
                + INSTANCE
                + " --query AutoScalingInstances[0].AutoScalingGroupName --output text",
            COMPLETE,
            COMPLETE);
    assertThat(run.output()).contains("completed the hook albumstore-drain of " + GROUP);
  }

  /** Planted: the hook completed before the service is stopped. */
  @Test
  void theChecksSeeACompletionBeforeTheStop() throws Exception {
    String stop = "  say \"$id is to terminate:";
    Path planted = plant(stop, "  complete \"$id\" \"$(group_of \"$id\")\" 1\n" + stop);

    assertThat(problems(drain(planted)))
        .containsExactly("the hook was completed before the service had stopped");
  }

  /** Planted: any answer of the metadata service taken for a termination. */
  @Test
  void theChecksSeeACallWhileInService() throws Exception {
    Path planted = plant("until [[ $state == Terminated ]]", "until [[ -n $state ]]");

    assertThat(problems(drain(planted)))
        .anyMatch(p -> p.startsWith("called while in service: [stop " + UNIT + " begin"));
  }

  @Test
  void onlyTheLowestInServiceInstancePublishesTheBacklog() throws Exception {
    env.put("FAKE_MEMBERS", "i-0fedcba9876543210\t" + INSTANCE);
    Scripts.Result publisher = publish();
    assertThat(publisher.exitCode()).as(publisher.output()).isZero();
    assertThat(Files.readAllLines(calls))
        .containsExactly(
            "aws autoscaling describe-auto-scaling-instances --instance-ids "
                + INSTANCE
                + " --query AutoScalingInstances[0].AutoScalingGroupName --output text",
            "aws autoscaling describe-auto-scaling-groups --auto-scaling-group-names "
                + GROUP
                + " --query AutoScalingGroups[0].Instances[?LifecycleState=='InService'].InstanceId"
                + " --output text",
            "backlog --stack albumstore",
            "aws cloudwatch put-metric-data --cli-input-json " + FAKE_METRIC);

    Files.delete(calls);
    env.put("FAKE_MEMBERS", INSTANCE + "\ti-0000000000000000a\ti-0fedcba9876543210");
    Scripts.Result other = publish();
    assertThat(other.exitCode()).as(other.output()).isZero();
    assertThat(other.output()).contains("not the publisher: i-0000000000000000a of " + GROUP);
    assertThat(Files.readAllLines(calls))
        .hasSize(2)
        .noneMatch(c -> c.startsWith("backlog") || c.contains("put-metric-data"));
  }

  /** What the handler did in one run: the calls before and after the state became Terminated. */
  record Drain(
      int exitCode, List<String> inService, List<String> afterTermination, String output) {}

  /**
   * Runs the handler {@code script} while the state is InService for at least five of its polls,
   * then Terminated until it exits; each phase bounded.
   */
  private Drain drain(Path script) throws Exception {
    imds.state("InService");
    Files.createDirectories(LOG.getParent());
    Path out = dir.resolve("drain.out");
    ProcessBuilder pb =
        new ProcessBuilder("bash", script.toString(), "drain", UNIT)
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    try {
      await(() -> imds.stateReads() >= 5 || !p.isAlive(), "five polls in service");
      List<String> inService = recorded();
      imds.state("Terminated");
      assertThat(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS))
          .as("the handler exits once done")
          .isTrue();
      List<String> all = recorded();
      String output = Files.readString(out);
      Files.writeString(LOG, output, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      return new Drain(p.exitValue(), inService, all.subList(inService.size(), all.size()), output);
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  /** The order the hook's handler must keep, as the problems a run shows (none: kept). */
  static List<String> problems(Drain run) {
    List<String> problems = new ArrayList<>();
    if (!run.inService().isEmpty()) {
      problems.add("called while in service: " + run.inService());
    }
    List<String> calls = run.afterTermination();
    int stopped = calls.indexOf("stop " + UNIT + " end");
    int completed = calls.indexOf(COMPLETE);
    if (completed < 0) {
      problems.add("the hook was never completed");
    } else if (stopped < 0 || completed < stopped) {
      problems.add("the hook was completed before the service had stopped");
    }
    return problems;
  }

  private Scripts.Result publish() throws Exception {
    return Scripts.run(
        List.of("bash", SCRIPT.toString(), "publish-backlog"), env, LOG, Duration.ofSeconds(30));
  }

  /** A copy of the script with {@code original} (which must be in it) replaced. */
  private Path plant(String original, String replacement) throws IOException {
    String text = Files.readString(SCRIPT);
    assertThat(text).contains(original);
    return Files.writeString(dir.resolve("planted.sh"), text.replace(original, replacement));
  }

  private List<String> recorded() throws IOException {
    return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static void executable(Path file, String text) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static final String FAKE_METRIC =
      "{\"Namespace\":\"AlbumStore\",\"MetricData\":[{\"MetricName\":\"WriteBacklog\","
          + "\"Dimensions\":[{\"Name\":\"StackName\",\"Value\":\"albumstore\"}],"
          + "\"Value\":1234,\"Unit\":\"Count\"}]}";

  /**
   * Records its arguments; answers the group look-ups; refuses as many completions as the file
   * {@code refusals} beside it says, as Auto Scaling does before the hook holds the instance.
   */
  private static final String FAKE_AWS =
      """
      #!/usr/bin/env bash
      echo "aws $*" >>"$FAKE_CALLS"
      refusals=$(dirname "$FAKE_CALLS")/refusals
      case "$1 $2" in
        "autoscaling describe-auto-scaling-instances") echo "$FAKE_GROUP" ;;
        "autoscaling describe-auto-scaling-groups") printf '%s\\n' "$FAKE_MEMBERS" ;;
        "autoscaling complete-lifecycle-action")
          n=$(cat "$refusals" 2>/dev/null || echo 0)
          if ((n > 0)); then
            echo $((n - 1)) >"$refusals"
            echo "An error occurred (ValidationError): No active Lifecycle Action found" >&2
            exit 254
          fi ;;
      esac
      """;

  /** A stop that takes a second, as a drain does, and records when it began and ended. */
  private static final String FAKE_STOP =
      """
      #!/usr/bin/env bash
      echo "stop $1 begin" >>"$FAKE_CALLS"
      sleep 1
      echo "stop $1 end" >>"$FAKE_CALLS"
      """;

  private static final String FAKE_BACKLOG =
      "#!/usr/bin/env bash\necho \"backlog $*\" >>\"$FAKE_CALLS\"\necho '" + FAKE_METRIC + "'\n";

  /**
   * IMDSv2 on loopback: PUT {@code /latest/api/token} issues the token; the metadata items answer
   * only with it (401 otherwise, as IMDS with HttpTokens required does).
   */
  static final class FakeImds {
    private static final String TOKEN = "fake-imds-token";
    private final HttpServer server;
    private final AtomicInteger stateReads = new AtomicInteger();
    private volatile String state = "InService";

    private FakeImds(HttpServer server) {
      this.server = server;
    }

    static FakeImds start(String instanceId) throws IOException {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      FakeImds imds = new FakeImds(server);
      server.createContext(
          "/latest/api/token",
          x ->
              answer(
                  x,
                  x.getRequestMethod().equals("PUT")
                          && x.getRequestHeaders()
                              .containsKey("X-aws-ec2-metadata-token-ttl-seconds")
                      ? 200
                      : 400,
                  TOKEN));
      server.createContext(
          "/latest/meta-data/instance-id", x -> answer(x, authorized(x), instanceId));
      server.createContext(
          "/latest/meta-data/autoscaling/target-lifecycle-state",
          x -> {
            imds.stateReads.incrementAndGet();
            answer(x, authorized(x), imds.state);
          });
      server.start();
      return imds;
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void state(String value) {
      state = value;
    }

    int stateReads() {
      return stateReads.get();
    }

    void stop() {
      server.stop(0);
    }

    private static int authorized(HttpExchange x) {
      return TOKEN.equals(x.getRequestHeaders().getFirst("X-aws-ec2-metadata-token")) ? 200 : 401;
    }

    private static void answer(HttpExchange x, int status, String body) throws IOException {
      byte[] bytes = (status == 200 ? body : "").getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      x.getResponseBody().write(bytes);
      x.close();
    }
  }
}
