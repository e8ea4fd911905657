package org.albumstore.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;
import org.albumstore.client.internal.check.Threshold;
import org.albumstore.client.internal.http.TransportKind;
import org.albumstore.client.internal.workload.Workload;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

class ClientCommandTest {
  private static final LocalDateTime NOW = LocalDateTime.of(2025, 11, 22, 8, 32, 1);
  private static final Env NO_ENV = Env.of(Map.of());

  private static ClientConfig parse(Env env, String... args) {
    ClientCommand c = new ClientCommand();
    new CommandLine(c).parseArgs(args);
    return ConfigResolver.resolve(c, env, NOW);
  }

  private static ClientConfig parse(String... args) {
    return parse(NO_ENV, args);
  }

  @Test
  void noArgumentsGiveTheDocumentedDefaults() {
    ClientConfig c = parse();
    assertThat(c.target().url()).isEqualTo("http://127.0.0.1:8080/albumstore");
    assertThat(c.groups().size()).isEqualTo(10);
    assertThat(c.groups().count()).isEqualTo(1);
    assertThat(c.groups().delay()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.writes().iterations()).isEqualTo(100);
    assertThat(c.groups().readers()).isZero();
    assertThat(c.target().retries()).isEqualTo(5);
    assertThat(c.target().timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.pacing().rate()).isZero();
    assertThat(c.writes().warmupIterations()).isZero();
    assertThat(c.writes().image()).isEmpty();
    assertThat(c.output().dir()).isEqualTo(Path.of("results", "runs", "20251122-083201"));
    assertThat(c.broker().managementApi().map(ClientConfig.ManagementApi::url))
        .contains("http://127.0.0.1:15672");
    assertThat(c.broker().managementApi().orElseThrow().user()).isEqualTo("guest");
    assertThat(c.broker().managementApi().orElseThrow().password()).isEqualTo("guest");
    assertThat(c.broker().managementApi().orElseThrow().vhost()).isEqualTo("/");
    assertThat(c.broker().queue()).isEqualTo("albumstore.writes");
    assertThat(c.broker().amqpUri()).contains(CommonSettings.AMQP_URI.defaultValue());
    assertThat(c.verification().enabled()).isTrue();
    assertThat(c.verification().drainTimeout()).isEqualTo(Duration.ofSeconds(120));
    assertThat(c.verification().threads()).isEqualTo(8);
    assertThat(c.output().progress()).isTrue();
    assertThat(c.tiers().serverMetrics()).contains("http://127.0.0.1:8080/albumstore/metrics");
    assertThat(c.tiers().consumerMetrics()).contains("http://127.0.0.1:9091/metrics");
    assertThat(c.writes().workload()).isEqualTo(Workload.ALBUM_REVIEWS);
    assertThat(c.writes().startupPhase()).isFalse();
  }

  @Test
  void workloadAndStartupPhaseAreParsedAndAnUnknownWorkloadNamesTheChoices() {
    ClientConfig c = parse("--workload", "post-get", "--startup-phase");
    assertThat(c.writes().workload()).isEqualTo(Workload.POST_GET);
    assertThat(c.writes().startupPhase()).isTrue();
    assertThat(parse("--workload", "album-reviews").writes().workload())
        .isEqualTo(Workload.ALBUM_REVIEWS);
    assertThatThrownBy(() -> parse("--workload", "get-post"))
        .hasMessageContaining("--workload")
        .hasMessageContaining("album-reviews, post-get");
    // The course's positional form takes the options too.
    assertThat(parse("10", "2", "1", "http://h:1/a", "--workload", "post-get").writes().workload())
        .isEqualTo(Workload.POST_GET);
  }

  @Test
  void transportAndIoThreadsAreParsedAndAnUnknownTransportNamesTheChoices() {
    ClientConfig defaults = parse();
    assertThat(defaults.target().transport()).isEqualTo(TransportKind.NETTY);
    assertThat(defaults.target().ioThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
    ClientConfig c = parse("--transport", "classic", "--io-threads", "3");
    assertThat(c.target().transport()).isEqualTo(TransportKind.CLASSIC);
    assertThat(c.target().ioThreads()).isEqualTo(3);
    assertThatThrownBy(() -> parse("--transport", "okhttp"))
        .hasMessageContaining("--transport")
        .hasMessageContaining("netty, classic");
    assertThatThrownBy(() -> parse("--io-threads", "0")).hasMessageContaining("--io-threads");
  }

  /** The option's help as {@code --help} prints it, its default filled in. */
  private static String help(String option) {
    OptionSpec o = new CommandLine(new ClientCommand()).getCommandSpec().findOption(option);
    return String.join(" ", o.renderedDescription());
  }

  @Test
  void theTransportsHelpStatesTheRealDefault() {
    assertThat(help("--transport"))
        .endsWith("Default: " + parse().target().transport().cliName() + ".");
  }

  @Test
  void theWorkloadsHelpStatesTheRealDefault() {
    assertThat(help("--workload"))
        .endsWith("Default: " + parse().writes().workload().cliName() + ".");
  }

  @Test
  void theHelpStatesTheDefaultsTheRunGets() {
    ClientConfig c = parse();
    assertThat(help("--group-size")).endsWith("Default: " + c.groups().size() + ".");
    assertThat(help("--groups")).endsWith("Default: " + c.groups().count() + ".");
    assertThat(help("--delay")).endsWith("Default: " + c.groups().delay().toSeconds() + ".");
    assertThat(help("--iterations")).endsWith("Default: " + c.writes().iterations() + ".");
    assertThat(help("--retries")).endsWith("Default: " + c.target().retries() + ".");
    assertThat(help("--timeout")).endsWith("Default: " + c.target().timeout().toSeconds() + ".");
    assertThat(help("--step-duration"))
        .endsWith("Default: " + c.pacing().stepDuration().toSeconds() + ".");
    assertThat(help("--drain-timeout"))
        .endsWith("Default: " + c.verification().drainTimeout().toSeconds() + ".");
    assertThat(help("--verify-threads")).endsWith("Default: " + c.verification().threads() + ".");
    assertThat(help("--vhost"))
        .endsWith("Default: " + c.broker().managementApi().orElseThrow().vhost() + ".");
    assertThat(help("--live-linger"))
        .endsWith("Default: " + c.watching().linger().toSeconds() + ".");
    assertThat(help("--bind")).endsWith("Default: " + c.watching().bind() + ".");
    assertThat(help("--live-port"))
        .endsWith("Default: " + parse("--live").watching().livePort() + " with --live.");
    assertThat(c.watching().livePort()).isEqualTo(-1);
  }

  @Test
  void metricsUrlsFollowTheBaseUrlTheEnvironmentAndTheFlagsAndNoneTurnsThemOff() {
    ClientConfig derived = parse("--url", "http://10.0.0.5:8080/albumstore/");
    assertThat(derived.tiers().serverMetrics()).contains("http://10.0.0.5:8080/albumstore/metrics");

    Env env =
        Env.of(
            Map.of(
                ClientSettings.SERVER_METRICS.variable(), "http://s:1/m",
                ClientSettings.CONSUMER_METRICS.variable(), "none"));
    ClientConfig fromEnv = parse(env);
    assertThat(fromEnv.tiers().serverMetrics()).contains("http://s:1/m");
    assertThat(fromEnv.tiers().consumerMetrics()).isEmpty();

    ClientConfig flags =
        parse(env, "--server-metrics", "none", "--consumer-metrics", "http://c:2/metrics");
    assertThat(flags.tiers().serverMetrics()).isEmpty();
    assertThat(flags.tiers().consumerMetrics()).contains("http://c:2/metrics");

    assertThatThrownBy(() -> parse("--consumer-metrics", "127.0.0.1:9091"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--consumer-metrics");
  }

  @Test
  void courseFormSetsGroupsDelayAndUrl() {
    ClientConfig c = parse("10", "30", "2", "http://10.0.0.5:8080/albumstore/");
    assertThat(c.groups().size()).isEqualTo(10);
    assertThat(c.groups().count()).isEqualTo(30);
    assertThat(c.groups().delay()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.target().url()).isEqualTo("http://10.0.0.5:8080/albumstore");
  }

  @Test
  void courseFormNeedsAllFourArguments() {
    assertThatThrownBy(() -> parse("10", "30"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("all four");
  }

  @Test
  void courseFormCannotBeMixedWithTheLoadOptions() {
    assertThatThrownBy(() -> parse("--threads", "4", "10", "30", "2", "http://h/a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not both");
  }

  @Test
  void anEndFileEndsATimedLoadOnly() {
    ClientConfig c = parse("--duration", "200", "--end-file", "upgrade.done");
    assertThat(c.pacing().endFile()).contains(Path.of("upgrade.done"));
    assertThat(c.pacing().duration()).isEqualTo(Duration.ofSeconds(200));
    assertThat(parse("--duration", "200").pacing().endFile()).isEmpty();
    assertThatThrownBy(() -> parse("--iterations", "5", "--end-file", "upgrade.done"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--end-file needs --duration");
  }

  @Test
  void threadsIsOneGroup() {
    ClientConfig c = parse("--threads", "256", "--iterations", "7");
    assertThat(c.groups().size()).isEqualTo(256);
    assertThat(c.groups().count()).isEqualTo(1);
    assertThat(c.writes().iterations()).isEqualTo(7);
    assertThatThrownBy(() -> parse("--threads", "4", "--groups", "2"))
        .hasMessageContaining("--threads cannot be combined");
  }

  @Test
  void everyOptionIsParsed() {
    ClientConfig c =
        parse(
            "--url",
            "http://127.0.0.1:9/x",
            "--group-size",
            "3",
            "--groups",
            "4",
            "--delay",
            "0.5",
            "--get-threads",
            "2",
            "--retries",
            "1",
            "--timeout",
            "5",
            "--rate",
            "250.5",
            "--warmup-iterations",
            "3",
            "--image",
            "a.png",
            "--out",
            "o",
            "--rmq-api",
            "none",
            "--rmq-user",
            "u",
            "--rmq-password",
            "p",
            "--vhost",
            "v",
            "--queue",
            "q",
            "--amqp-uri",
            "amqps://u:p@mq.example:5671",
            "--no-verify",
            "--drain-timeout",
            "9",
            "--verify-threads",
            "3",
            "--no-progress");
    assertThat(c.target().url()).isEqualTo("http://127.0.0.1:9/x");
    assertThat(c.groups().size()).isEqualTo(3);
    assertThat(c.groups().count()).isEqualTo(4);
    assertThat(c.groups().delay()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.groups().readers()).isEqualTo(2);
    assertThat(c.target().retries()).isEqualTo(1);
    assertThat(c.target().timeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.pacing().rate()).isEqualTo(250.5);
    assertThat(c.writes().warmupIterations()).isEqualTo(3);
    assertThat(c.writes().image()).contains(Path.of("a.png"));
    assertThat(c.output().dir()).isEqualTo(Path.of("o"));
    assertThat(c.broker().managementApi()).isEmpty();
    assertThat(c.broker().queue()).isEqualTo("q");
    assertThat(c.broker().amqpUri()).contains("amqps://u:p@mq.example:5671");
    assertThat(c.verification().enabled()).isFalse();
    assertThat(c.verification().drainTimeout()).isEqualTo(Duration.ofSeconds(9));
    assertThat(c.verification().threads()).isEqualTo(3);
    assertThat(c.output().progress()).isFalse();
    // The management API's user, password and vhost go with it: parsed whenever it is on.
    ClientConfig.ManagementApi api =
        parse(
                "--rmq-api",
                "http://127.0.0.1:9/api",
                "--rmq-user",
                "u",
                "--rmq-password",
                "p",
                "--vhost",
                "v")
            .broker()
            .managementApi()
            .orElseThrow();
    assertThat(api.url()).isEqualTo("http://127.0.0.1:9/api");
    assertThat(api.user()).isEqualTo("u");
    assertThat(api.password()).isEqualTo("p");
    assertThat(api.vhost()).isEqualTo("v");
    assertThat(api.toString()).doesNotContain("password");
  }

  @Test
  void withoutTheNewFlagsARunIsBoundedByIterationsAndHasNoThresholds() {
    ClientConfig c = parse();
    assertThat(c.pacing().duration()).isZero();
    assertThat(c.pacing().steps()).isEmpty();
    assertThat(c.pacing().stepDuration()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.output().thresholds()).isEmpty();
    assertThat(c.output().baseline()).isEmpty();
    assertThat(c.output().runId()).isEmpty();
  }

  @Test
  void aDurationAloneLeavesTheIterationsUnboundedAndBothTogetherKeepTheIterations() {
    ClientConfig timed = parse("--duration", "2.5");
    assertThat(timed.pacing().duration()).isEqualTo(Duration.ofMillis(2500));
    assertThat(timed.writes().iterations()).isEqualTo(RunSummary.UNBOUNDED_ITERATIONS);
    ClientConfig both = parse("--duration", "30", "--iterations", "7");
    assertThat(both.pacing().duration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(both.writes().iterations()).isEqualTo(7);
    assertThatThrownBy(() -> parse("--duration", "-1")).hasMessageContaining("--duration");
  }

  @Test
  void rateStepsLastTheirStepsUnlessADurationIsGivenAndExcludeAFixedRate() {
    ClientConfig c = parse("--rate-steps", "1000,2000,4000", "--step-duration", "5");
    assertThat(c.pacing().steps()).containsExactly(1000.0, 2000.0, 4000.0);
    assertThat(c.pacing().stepDuration()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.pacing().duration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.writes().iterations()).isEqualTo(RunSummary.UNBOUNDED_ITERATIONS);
    assertThat(parse("--rate-steps", "10,20", "--duration", "60").pacing().duration())
        .isEqualTo(Duration.ofSeconds(60));
    assertThatThrownBy(() -> parse("--rate-steps", "10", "--rate", "5"))
        .hasMessageContaining("--rate and --rate-steps");
    assertThatThrownBy(() -> parse("--rate-steps", "10,0")).hasMessageContaining("--rate-steps");
    assertThatThrownBy(() -> parse("--step-duration", "0.5"))
        .hasMessageContaining("--step-duration");
  }

  @Test
  void aRampNeedsADurationAndExcludesTheOtherOpenModels() {
    ClientConfig c = parse("--rate-ramp", "100,900", "--duration", "30");
    assertThat(c.pacing().ramp()).containsExactly(100.0, 900.0);
    assertThat(c.pacing().duration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(parse().pacing().ramp()).isEmpty();
    assertThatThrownBy(() -> parse("--rate-ramp", "100,900")).hasMessageContaining("--duration");
    assertThatThrownBy(() -> parse("--rate-ramp", "100", "--duration", "5"))
        .hasMessageContaining("FROM,TO");
    assertThatThrownBy(() -> parse("--rate-ramp", "1,2", "--duration", "5", "--rate", "3"))
        .hasMessageContaining("excludes");
  }

  @Test
  void thresholdsApplyToAllWritesOrToTheNamedRequestTypeAndAreRepeatable() {
    ClientConfig c =
        parse(
            "--max-p99",
            "50",
            "--max-p99",
            "POST /albums=80",
            "--max-error-rate",
            "0.01",
            "--min-throughput",
            "GET /review=100");
    assertThat(c.output().thresholds())
        .containsExactly(
            new Threshold(Threshold.Metric.MAX_P99, "all writes", 50),
            new Threshold(Threshold.Metric.MAX_P99, "POST /albums", 80),
            new Threshold(Threshold.Metric.MAX_ERROR_RATE, "all writes", 0.01),
            new Threshold(Threshold.Metric.MIN_THROUGHPUT, "GET /review", 100));
    assertThatThrownBy(() -> parse("--max-p99", "POST /nope=3"))
        .hasMessageContaining("--max-p99")
        .hasMessageContaining("POST /nope");
    assertThatThrownBy(() -> parse("--max-error-rate", "2"))
        .hasMessageContaining("--max-error-rate");
    assertThatThrownBy(() -> parse("--min-throughput", "fast"))
        .hasMessageContaining("--min-throughput");
  }

  @Test
  void runIdAndBaselineAreCheckedBeforeTheRun(@TempDir Path tmp) throws Exception {
    Path summary = Files.writeString(tmp.resolve("summary.json"), "{}");
    ClientConfig c = parse("--run-id", "bench-7", "--baseline", summary.toString());
    assertThat(c.output().runId()).contains("bench-7");
    assertThat(c.output().baseline()).contains(summary);
    assertThatThrownBy(() -> parse("--run-id", "a b")).hasMessageContaining("--run-id");
    assertThatThrownBy(() -> parse("--baseline", tmp.resolve("missing.json").toString()))
        .hasMessageContaining("--baseline");
  }

  @Test
  void helpDocumentsTheThresholdExitCode() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    ClientMain.execute(
        NO_ENV, new PrintStream(buf, true, StandardCharsets.UTF_8), System.err, "--help");
    String help = buf.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
    assertThat(help)
        .contains("99 a --max-p99/--max-error-rate/--min-throughput threshold crossed")
        .contains("--duration=SECONDS")
        .contains("--rate-steps=RATE[,RATE...]")
        .contains("Crossed: exit code 99.");
  }

  @Test
  void environmentFillsWhatTheFlagsLeaveOpenAndFlagsWin() {
    Env env =
        Env.of(
            Map.of(
                "ALBUMSTORE_CLIENT_URL", "http://127.0.0.2:8080/albumstore",
                "ALBUMSTORE_RMQ_API", "http://127.0.0.2:15672",
                "ALBUMSTORE_RMQ_USER", "admin",
                "ALBUMSTORE_RMQ_PASSWORD", "secret",
                "ALBUMSTORE_AMQP_URI", "amqp://a:b@127.0.0.2:5672",
                "ALBUMSTORE_QUEUE", "other.queue"));
    ClientConfig c = parse(env);
    assertThat(c.target().url()).isEqualTo("http://127.0.0.2:8080/albumstore");
    assertThat(c.broker().managementApi().map(ClientConfig.ManagementApi::url))
        .contains("http://127.0.0.2:15672");
    assertThat(c.broker().managementApi().orElseThrow().user()).isEqualTo("admin");
    assertThat(c.broker().managementApi().orElseThrow().password()).isEqualTo("secret");
    assertThat(c.broker().amqpUri()).contains("amqp://a:b@127.0.0.2:5672");
    assertThat(c.broker().queue()).isEqualTo("other.queue");
    assertThat(parse(env, "--url", "http://127.0.0.3:1/a").target().url())
        .isEqualTo("http://127.0.0.3:1/a");
  }

  @Test
  void impossibleValuesAreRejectedNamingTheOption() {
    assertThatThrownBy(() -> parse("--iterations", "0")).hasMessageContaining("--iterations");
    assertThatThrownBy(() -> parse("--get-threads", "-1")).hasMessageContaining("--get-threads");
    assertThatThrownBy(() -> parse("--url", "ftp://x")).hasMessageContaining("http://");
    assertThatThrownBy(() -> parse("--amqp-uri", "http://x")).hasMessageContaining("amqp");
  }

  @Test
  void helpStatesEveryOptionsDefault() {
    CommandLine cli = new CommandLine(new ClientCommand());
    for (ArgSpec arg : cli.getCommandSpec().args()) {
      if (arg.isOption() && (((OptionSpec) arg).usageHelp() || ((OptionSpec) arg).versionHelp())) {
        continue; // picocli's own --help and --version
      }
      String text = String.join(" ", arg.renderedDescription());
      // The last sentence of every description states the default.
      assertThat(text).as("help of %s", arg).contains("Default: ");
      String last = text.substring(text.lastIndexOf("Default: "));
      assertThat(last).as("help of %s ends with its default", arg).doesNotContain(". ");
    }
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    ClientResult r =
        ClientMain.execute(
            NO_ENV, new PrintStream(buf, true, StandardCharsets.UTF_8), System.err, "--help");
    String help = buf.toString(StandardCharsets.UTF_8);
    assertThat(r.exitCode()).isZero();
    assertThat(help)
        .contains("Default: http://127.0.0.1:8080/albumstore.")
        .contains("Default: 100.")
        .contains("Default: 5.")
        .contains("Default: " + CommonSettings.AMQP_URI.defaultValue() + ".")
        .contains("--[no-]verify")
        .contains("<threadGroupSize> <numThreadGroups> <delay> <baseURL>");
  }

  @Test
  void helpShowsTheAmqpDefaultExactly() {
    // picocli formats descriptions: the '%' of the default URI must come out as it is.
    String help =
        new CommandLine(new ClientCommand())
            .setUsageHelpWidth(300)
            .getUsageMessage(CommandLine.Help.Ansi.OFF);
    assertThat(help).contains("Default: " + CommonSettings.AMQP_URI.defaultValue() + ".");
  }

  @Test
  void usageErrorsExitWithTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ClientResult r =
        ClientMain.execute(
            NO_ENV, System.out, new PrintStream(err, true, StandardCharsets.UTF_8), "--bogus");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.summary()).isNull();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--bogus");
  }
}
