package org.albumstore.client;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.albumstore.client.history.HistoryFile;
import org.albumstore.common.config.SettingOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The command line: the parsed options and their defaults, nothing more. Options that may also come
 * from the environment are derived from their declarations in {@link ClientSettings} and have no
 * value unless given: {@code ConfigResolver} resolves flag, then variable, then default, so the
 * {@code --help} text states each declared default (and never prints a password taken from the
 * environment), and tests pass their own {@code Env}.
 *
 * <p>The load's own options have no variable: each declares its default once, as the annotation's
 * {@code defaultValue}, which picocli sets before parsing and prints where the help says {@code
 * ${DEFAULT-VALUE}}. An option whose default depends on something else (the machine's processors,
 * the run's start time, other options) has none here; its help says what applies and {@code
 * ConfigResolver} applies it. Where the form of the command matters (the course's positionals, or a
 * timed run), {@link #given} tells a default from a value given.
 */
@Command(
    name = "java -jar client.jar",
    modelTransformer = ClientCommand.Options.class,
    mixinStandardHelpOptions = true,
    versionProvider = ClientVersion.class,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Load client of Album Store: runs the album/review workload against a server, reports"
          + " throughput, latency percentiles and queue depth, and verifies the stored counts.",
      "",
      "Per thread iteration: POST /albums, then two POST /review/like/{id} and one"
          + " POST /review/dislike/{id} (--workload album-reviews); or POST /albums, then"
          + " GET /albums/{id} (--workload post-get).",
      "Course form: java -jar client.jar <threadGroupSize> <numThreadGroups> <delay> <baseURL>",
      ""
    },
    footer = {
      "",
      "Environment: the variable each option names after 'env' (a flag wins over its variable).",
      "Writes to --out: requests.csv, timeline.csv, summary.json, chart.png, spectrum.png,"
          + " report.html, acknowledged.csv (for merge), <request-type>.hlog (HdrHistogram"
          + " interval logs, one per type) and, with rate steps or a ramp, steps.csv.",
      "Several clients: java -jar client.jar merge DIR DIR ... combines their runs (same"
          + " --run-id) into one report; merge --help for its options.",
      "A run's history: java -jar client.jar check-history DIR judges it; check-history --help.",
      "Exit codes: 0 all requests succeeded and verified; 1 failed requests, mismatches or"
          + " history violations;"
          + " 2 usage error; 3 run impossible (server unreachable, output not writable);"
          + " 99 a --max-p99/--max-error-rate/--min-throughput threshold crossed (and nothing"
          + " else failed); 130 interrupted."
    })
final class ClientCommand {
  @Spec CommandSpec spec;

  /**
   * Adds the options of the settings that may come from the environment ({@link ClientSettings}).
   */
  static final class Options implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
      SettingOptions.addTo(commandSpec, ClientSettings.DECLARED);
      return commandSpec;
    }
  }

  /** The course's start-up phase ({@code --startup-phase}): fixed, not options. */
  static final int STARTUP_THREADS = 10;

  static final int STARTUP_ITERATIONS = 100;

  /** The exit code of a run that crossed a pass/fail threshold and failed nothing else. */
  static final int THRESHOLD_EXIT = 99;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "threadGroupSize",
      description = {
        "Course form: threads per group (all four positionals or none).",
        "Default: unset."
      })
  Integer positionalGroupSize;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "numThreadGroups",
      description = {"Course form: number of groups.", "Default: unset."})
  Integer positionalGroups;

  @Parameters(
      index = "2",
      arity = "0..1",
      paramLabel = "delay",
      description = {"Course form: seconds between group starts.", "Default: unset."})
  Double positionalDelay;

  @Parameters(
      index = "3",
      arity = "0..1",
      paramLabel = "baseURL",
      description = {"Course form: the server's base URL.", "Default: unset."})
  String positionalUrl;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = {
        "Writers in one group (= --group-size N --groups 1); each has one request in flight:"
            + " a thread with --transport classic, a virtual user on the event loops with netty.",
        "Default: unset, the group" + " options apply."
      })
  Integer threads;

  @Option(
      names = "--group-size",
      paramLabel = "N",
      defaultValue = "10",
      description = {"Writers per group.", "Default: ${DEFAULT-VALUE}."})
  int groupSize;

  @Option(
      names = "--groups",
      paramLabel = "N",
      defaultValue = "1",
      description = {"Number of thread groups.", "Default: ${DEFAULT-VALUE}."})
  int groups;

  @Option(
      names = "--delay",
      paramLabel = "SECONDS",
      defaultValue = "2",
      description = {"Seconds between the starts of two groups.", "Default: ${DEFAULT-VALUE}."})
  double delay;

  @Option(
      names = "--iterations",
      paramLabel = "N",
      defaultValue = "100",
      description = {
        "Iterations per writer thread (4 requests each); in a timed run (--duration,"
            + " --rate-steps) unbounded unless given.",
        "Default: ${DEFAULT-VALUE}."
      })
  int iterations;

  @Option(
      names = "--workload",
      paramLabel = "NAME",
      defaultValue = "album-reviews",
      description = {
        "What a writer iteration does: album-reviews = POST /albums, 2 likes, 1 dislike;"
            + " post-get = POST /albums, then GET /albums/{id} of that album (the course's"
            + " assignment 2); reviews = 2 likes and 1 dislike of an album ID no POST created"
            + " (POST /review only).",
        "Default: ${DEFAULT-VALUE}."
      })
  String workload;

  @Option(
      names = "--startup-phase",
      defaultValue = "false",
      description = {
        "Before the thread groups, the course's start-up phase: "
            + STARTUP_THREADS
            + " threads x "
            + STARTUP_ITERATIONS
            + " iterations of the workload (not in the statistics, verified).",
        "Default: ${DEFAULT-VALUE}."
      })
  boolean startupPhase;

  @Option(
      names = "--get-threads",
      paramLabel = "N",
      defaultValue = "0",
      description = {
        "Reader threads calling GET /review/{id} from the end of the first group until all"
            + " groups finish.",
        "Default: ${DEFAULT-VALUE}."
      })
  int getThreads;

  @Option(
      names = "--read-back",
      paramLabel = "PERCENT",
      defaultValue = "0",
      description = {
        "The share of writers that read back what they were told exists: the album after its"
            + " 200 (GET /albums/{id}) and its counts after each review (GET /review/{id}), sent"
            + " at once, outside --rate's schedule, reported as reads. For --history's checker.",
        "Default: ${DEFAULT-VALUE}."
      })
  int readBack;

  @Option(
      names = "--history",
      negatable = true,
      defaultValue = "false",
      fallbackValue = "true",
      description = {
        "Record every attempt of every request (sent and answered times, key, album, outcome,"
            + " counts read) in "
            + HistoryFile.NAME
            + ", and after the verification judge it (as check-history does; the database from"
            + " --jdbc-url).",
        "Default: ${DEFAULT-VALUE}."
      })
  boolean history;

  @Option(
      names = "--retries",
      paramLabel = "N",
      defaultValue = "5",
      description = {
        "Retries of a request that got a 4xx/5xx or an I/O error.",
        "Default: ${DEFAULT-VALUE}."
      })
  int retries;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description = {"Connect and response timeout of one attempt.", "Default: ${DEFAULT-VALUE}."})
  double timeout;

  @Option(
      names = "--transport",
      paramLabel = "NAME",
      defaultValue = "netty",
      description = {
        "What sends the requests: netty = a few event-loop threads (epoll on Linux, else NIO),"
            + " the cheaper per request; classic = Apache HttpClient 5, a blocking connection per"
            + " load thread.",
        "Default: ${DEFAULT-VALUE}."
      })
  String transport;

  @Option(
      names = "--io-threads",
      paramLabel = "N",
      description = {
        "Event-loop threads of --transport netty.",
        "Default: the number of available processors."
      })
  Integer ioThreads;

  @Option(
      names = "--rate",
      paramLabel = "REQ_PER_S",
      defaultValue = "0",
      description = {
        "Open model: writes are due at this total rate and latency counts from the due time"
            + " (no coordinated omission).",
        "Default: ${DEFAULT-VALUE} = closed model."
      })
  double rate;

  @Option(
      names = "--duration",
      paramLabel = "SECONDS",
      description = {
        "Time-bounded run: writers loop until this many seconds after the load started, then"
            + " finish their iteration; --iterations, when given too, still caps each writer.",
        "Default: the --rate-steps' total, else 0 = bounded by --iterations only."
      })
  Double duration;

  @Option(
      names = "--end-file",
      paramLabel = "PATH",
      description = {
        "Ends the load early once PATH exists, as the end of --duration would (the drain, the"
            + " audit and the report follow): the signal of a process that runs beside the load,"
            + " e.g. an upgrade that is done. Needs --duration, which stays the bound.",
        "Default: none."
      })
  Path endFile;

  @Option(
      names = "--rate-steps",
      paramLabel = "RATE",
      split = ",",
      description = {
        "Stepped open model to find the knee of the curve, e.g. 1000,2000,4000: writes are due"
            + " at the first rate (req/s) for --step-duration seconds, then the next, ...; the run"
            + " ends with the last step (unless --duration says otherwise) and the report and"
            + " summary.json have one row per step. Excludes --rate.",
        "Default: none."
      })
  List<Double> rateSteps;

  @Option(
      names = "--rate-ramp",
      paramLabel = "FROM,TO",
      split = ",",
      description = {
        "Ramped open model: the rate of writes rises (or falls) linearly from FROM to TO req/s"
            + " over --duration seconds (required); the report has a row per --step-duration"
            + " of the ramp. Excludes --rate and --rate-steps.",
        "Default: none."
      })
  List<Double> rateRamp;

  @Option(
      names = "--step-duration",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description = {
        "Length of each --rate-steps step, and of each report row of a --rate-ramp; at least 1.",
        "Default: ${DEFAULT-VALUE}."
      })
  double stepDuration;

  @Option(
      names = "--max-p99",
      paramLabel = "[TYPE=]MS",
      description = {
        "Pass/fail: p99 latency in ms must not exceed this, for all writes or, as 'POST"
            + " /albums=80', for one request type; repeatable. Crossed: exit code "
            + THRESHOLD_EXIT
            + ".",
        "Default: none."
      })
  List<String> maxP99;

  @Option(
      names = "--max-error-rate",
      paramLabel = "[TYPE=]FRACTION",
      description = {
        "Pass/fail: failed / finished requests must not exceed this fraction (0.01 = 1%%), for"
            + " all writes or one request type; repeatable. Crossed: exit code "
            + THRESHOLD_EXIT
            + ".",
        "Default: none."
      })
  List<String> maxErrorRate;

  @Option(
      names = "--min-throughput",
      paramLabel = "[TYPE=]REQ_PER_S",
      description = {
        "Pass/fail: successful requests per second must be at least this, for all writes or one"
            + " request type; repeatable. Crossed: exit code "
            + THRESHOLD_EXIT
            + ".",
        "Default: none."
      })
  List<String> minThroughput;

  @Option(
      names = "--baseline",
      paramLabel = "FILE",
      description = {
        "summary.json of an earlier run: the report adds each figure of that run, this run and"
            + " the change, flagging changes beyond the two runs' per-second noise.",
        "Default: none."
      })
  Path baseline;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description = {
        "The run's ID (in idempotency keys, reports and .hlog files); give several clients of one"
            + " test the same ID and 'merge' checks it.",
        "Default: <yyyyMMdd-HHmmss>-<8 random hex digits>."
      })
  String runId;

  @Option(
      names = "--warmup-iterations",
      paramLabel = "N",
      defaultValue = "0",
      description = {
        "Iterations per thread of the first group before measuring (not in the statistics,"
            + " verified).",
        "Default: ${DEFAULT-VALUE}."
      })
  int warmupIterations;

  @Option(
      names = "--image",
      paramLabel = "FILE",
      description = {"Image to upload with each album.", "Default: a built-in 3,471-byte PNG."})
  Path image;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = {"Directory for the run's files.", "Default: results/runs/<yyyyMMdd-HHmmss>."})
  Path out;

  @Option(
      names = "--vhost",
      paramLabel = "VHOST",
      defaultValue = "/",
      description = {"RabbitMQ virtual host of the queue.", "Default: ${DEFAULT-VALUE}."})
  String vhost;

  @Option(
      names = "--verify",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = {
        "After the load, wait for the queue to drain and compare every album's counts with the"
            + " acknowledged reviews.",
        "Default: ${DEFAULT-VALUE}."
      })
  boolean verify;

  @Option(
      names = "--drain-timeout",
      paramLabel = "SECONDS",
      defaultValue = "120",
      description = {
        "Longest wait for the queue to drain and the counts to agree.",
        "Default: ${DEFAULT-VALUE}."
      })
  double drainTimeout;

  @Option(
      names = "--verify-threads",
      paramLabel = "N",
      defaultValue = "8",
      description = {"Concurrent GETs while verifying.", "Default: ${DEFAULT-VALUE}."})
  int verifyThreads;

  @Option(
      names = "--progress",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = {"A progress line each second on stderr.", "Default: ${DEFAULT-VALUE}."})
  boolean progress;

  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      description = {
        "Serve GET /metrics (Prometheus text format) for the whole run: requests by type and"
            + " outcome, latency histograms, in flight, queue depth, phase; 0 = any free port.",
        "Default: off."
      })
  Integer metricsPort;

  @Option(
      names = "--live",
      defaultValue = "false",
      description = {
        "Serve a live page of the run (rate, p50/p99 per type, failures, in flight, queue depth,"
            + " verification) on --live-port; it stays up --live-linger seconds after the end,"
            + " with the summary and report.html.",
        "Default: ${DEFAULT-VALUE}."
      })
  boolean live;

  @Option(
      names = "--live-port",
      paramLabel = "PORT",
      defaultValue = "8089",
      description = {
        "The live page's port; given, it implies --live; 0 = any free port.",
        "Default: ${DEFAULT-VALUE} with --live."
      })
  int livePort;

  @Option(
      names = "--live-linger",
      paramLabel = "SECONDS",
      defaultValue = "5",
      description = {
        "How long the live page stays up after the run, showing its summary.",
        "Default: ${DEFAULT-VALUE}."
      })
  double liveLinger;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description = {
        "Local address of --metrics-port and the live page: they have no authentication, so"
            + " loopback unless you choose otherwise (e.g. 0.0.0.0).",
        "Default: ${DEFAULT-VALUE}."
      })
  String bind;

  /**
   * Whether the command line gave {@code option}, as opposed to its default applying: the course's
   * positionals exclude the group options, and a timed run's iterations are unbounded unless given.
   */
  boolean given(String option) {
    return spec.commandLine().getParseResult().hasMatchedOption(option);
  }

  /** The flags of {@link ClientSettings} that were given, keyed by their variables. */
  Map<String, String> givenSettings() {
    return SettingOptions.given(spec, ClientSettings.DECLARED);
  }
}
