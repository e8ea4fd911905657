package org.albumstore.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.albumstore.client.internal.check.Threshold;
import org.albumstore.client.internal.http.TransportKind;
import org.albumstore.client.internal.workload.Workload;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;

/**
 * Turns the parsed command line into a {@link ClientConfig}: the course's positional form or the
 * options, then flag over {@code ALBUMSTORE_*} variable over default, then range checks. Every
 * error names the option, so a user can fix the command without reading code.
 */
final class ConfigResolver {
  private ConfigResolver() {}

  /**
   * Resolves flags, environment and defaults into a config.
   *
   * @throws IllegalArgumentException naming the option when a value is impossible
   */
  static ClientConfig resolve(ClientCommand c, Env env, LocalDateTime now) {
    Map<String, String> given = c.givenSettings();
    Env settings = env.withOverrides(given);
    GroupsGiven groups = groups(c, given, settings);
    checkCounts(c, groups);
    List<Double> steps = rateSteps(c);
    List<Double> ramp = rateRamp(c, steps);
    double durationSeconds = durationSeconds(c, steps);
    int iterations = iterations(c, durationSeconds);
    List<Threshold> thresholds = thresholds(c);
    checkBaselineAndRunId(c);
    checkLimits(c, groups);
    String url = checkUrl(groups.baseUrl().trim());
    return new ClientConfig(
        new ClientConfig.Target(
            url,
            TransportKind.fromCliName(c.transport),
            ioThreads(c),
            seconds(c.timeout),
            c.retries),
        new ClientConfig.Groups(
            groups.size(), groups.count(), seconds(groups.delaySeconds()), c.getThreads),
        new ClientConfig.Writes(
            Workload.fromCliName(c.workload),
            iterations,
            Optional.ofNullable(c.image),
            c.warmupIterations,
            c.startupPhase,
            c.readBack),
        new ClientConfig.Pacing(
            c.rate,
            steps,
            seconds(c.stepDuration),
            ramp,
            seconds(durationSeconds),
            Optional.ofNullable(c.endFile)),
        broker(c, settings),
        tiers(settings, url),
        new ClientConfig.Verification(c.verify, seconds(c.drainTimeout), c.verifyThreads),
        c.history
            ? new ClientConfig.History(true, Optional.ofNullable(ClientSettings.database(settings)))
            : ClientConfig.History.OFF,
        new ClientConfig.Output(
            outDir(c, now),
            Optional.ofNullable(c.runId),
            Optional.ofNullable(c.baseline),
            thresholds,
            c.progress),
        watching(c));
  }

  /** --metrics-port, --live, --live-port, --live-linger and --bind. */
  private static ClientConfig.Watching watching(ClientCommand c) {
    int metrics = c.metricsPort == null ? -1 : port("--metrics-port", c.metricsPort);
    int live = c.live || c.given("--live-port") ? port("--live-port", c.livePort) : -1;
    if (metrics > 0 && metrics == live) {
      throw new IllegalArgumentException("--metrics-port and --live-port must differ");
    }
    if (!(c.liveLinger >= 0)) {
      throw new IllegalArgumentException("--live-linger must be 0 or more");
    }
    if (c.bind == null || c.bind.isBlank()) {
      throw new IllegalArgumentException("--bind needs an address");
    }
    return new ClientConfig.Watching(metrics, live, c.bind.trim(), seconds(c.liveLinger));
  }

  private static int port(String option, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(option + " must be 0 to 65535, got " + port);
    }
    return port;
  }

  /**
   * The thread groups and the server, as the course's four positionals or as the options.
   *
   * @param baseUrl as given, not yet checked
   */
  private record GroupsGiven(int size, int count, double delaySeconds, String baseUrl) {}

  private static GroupsGiven groups(ClientCommand c, Map<String, String> given, Env settings) {
    boolean positional =
        c.positionalGroupSize != null
            || c.positionalGroups != null
            || c.positionalDelay != null
            || c.positionalUrl != null;
    return positional ? positionalGroups(c, given) : optionGroups(c, settings);
  }

  private static GroupsGiven positionalGroups(ClientCommand c, Map<String, String> given) {
    if (c.positionalGroupSize == null
        || c.positionalGroups == null
        || c.positionalDelay == null
        || c.positionalUrl == null) {
      throw new IllegalArgumentException(
          "the course form takes all four: <threadGroupSize> <numThreadGroups> <delay> <baseURL>");
    }
    if (c.threads != null
        || c.given("--group-size")
        || c.given("--groups")
        || c.given("--delay")
        || given.containsKey(ClientSettings.URL.variable())) {
      throw new IllegalArgumentException(
          "give the load either positionally or with --threads/--group-size/--groups/--delay/--url,"
              + " not both");
    }
    return new GroupsGiven(
        c.positionalGroupSize, c.positionalGroups, c.positionalDelay, c.positionalUrl);
  }

  private static GroupsGiven optionGroups(ClientCommand c, Env settings) {
    if (c.threads != null && (c.given("--group-size") || c.given("--groups"))) {
      throw new IllegalArgumentException("--threads cannot be combined with --group-size/--groups");
    }
    int size = c.threads != null ? c.threads : c.groupSize;
    int count = c.threads != null ? 1 : c.groups;
    return new GroupsGiven(size, count, c.delay, ClientSettings.URL.read(settings));
  }

  /** The counts of threads, retries and iterations that have a lower bound. */
  private static void checkCounts(ClientCommand c, GroupsGiven groups) {
    atLeast("threadGroupSize/--threads/--group-size", groups.size(), 1);
    atLeast("numThreadGroups/--groups", groups.count(), 1);
    atLeast("--get-threads", c.getThreads, 0);
    atLeast("--retries", c.retries, 0);
    atLeast("--warmup-iterations", c.warmupIterations, 0);
    atLeast("--verify-threads", c.verifyThreads, 1);
    if (c.readBack < 0 || c.readBack > 100) {
      throw new IllegalArgumentException("--read-back must be 0 to 100 (%), was " + c.readBack);
    }
  }

  /** {@code --rate-steps}, empty when not given. */
  private static List<Double> rateSteps(ClientCommand c) {
    List<Double> steps = c.rateSteps == null ? List.of() : List.copyOf(c.rateSteps);
    if (!steps.isEmpty()) {
      if (c.rate != 0) {
        throw new IllegalArgumentException("--rate and --rate-steps exclude each other");
      }
      for (double r : steps) {
        if (!(r > 0) || Double.isInfinite(r)) {
          throw new IllegalArgumentException("--rate-steps must all be > 0, was " + steps);
        }
      }
    }
    return steps;
  }

  /** {@code --rate-ramp}, empty when not given. */
  private static List<Double> rateRamp(ClientCommand c, List<Double> steps) {
    List<Double> ramp = c.rateRamp == null ? List.of() : List.copyOf(c.rateRamp);
    if (!ramp.isEmpty()) {
      if (ramp.size() != 2 || !(ramp.get(0) > 0) || !(ramp.get(1) > 0)) {
        throw new IllegalArgumentException("--rate-ramp takes FROM,TO, both > 0, was " + ramp);
      }
      if (c.rate != 0 || !steps.isEmpty()) {
        throw new IllegalArgumentException("--rate-ramp excludes --rate and --rate-steps");
      }
      if (c.duration == null || !(c.duration > 0)) {
        throw new IllegalArgumentException("--rate-ramp needs --duration, the ramp's length");
      }
    }
    return ramp;
  }

  /**
   * How long the writers loop, in seconds: {@code --duration}, else the steps' total; 0 for no time
   * bound.
   */
  private static double durationSeconds(ClientCommand c, List<Double> steps) {
    if (!(c.stepDuration >= 1)) {
      // Steps are built from the timeline's one-second intervals.
      throw new IllegalArgumentException(
          "--step-duration must be at least 1 (second), was " + c.stepDuration);
    }
    if (c.duration != null && !(c.duration >= 0)) {
      throw new IllegalArgumentException("--duration must be >= 0, was " + c.duration);
    }
    // The steps end the run with the last one, unless --duration says otherwise.
    double seconds = c.duration != null ? c.duration : steps.size() * c.stepDuration;
    if (c.endFile != null && !(seconds > 0)) {
      throw new IllegalArgumentException("--end-file needs --duration, the load's bound");
    }
    return seconds;
  }

  /** {@code --iterations}: unbounded in a timed run unless given. */
  private static int iterations(ClientCommand c, double durationSeconds) {
    boolean timed = durationSeconds > 0;
    int iterations =
        timed && !c.given("--iterations") ? RunSummary.UNBOUNDED_ITERATIONS : c.iterations;
    atLeast("--iterations", iterations, 1);
    return iterations;
  }

  /** The pass/fail thresholds, in the order of their options. */
  private static List<Threshold> thresholds(ClientCommand c) {
    List<Threshold> thresholds = new ArrayList<>();
    thresholds(thresholds, Threshold.Metric.MAX_P99, c.maxP99);
    thresholds(thresholds, Threshold.Metric.MAX_ERROR_RATE, c.maxErrorRate);
    thresholds(thresholds, Threshold.Metric.MIN_THROUGHPUT, c.minThroughput);
    return List.copyOf(thresholds);
  }

  private static void checkBaselineAndRunId(ClientCommand c) {
    if (c.baseline != null && !Files.isRegularFile(c.baseline)) {
      throw new IllegalArgumentException("--baseline: no such file " + c.baseline);
    }
    if (c.runId != null && !c.runId.matches("[A-Za-z0-9._-]{1,64}")) {
      // It ends up in idempotency keys and file names.
      throw new IllegalArgumentException(
          "--run-id takes 1 to 64 letters, digits, '.', '_' or '-', was '" + c.runId + "'");
    }
  }

  /** The total of threads, and the delays and rates that must not be negative. */
  private static void checkLimits(ClientCommand c, GroupsGiven groups) {
    if (groups.size() * (long) groups.count() + c.getThreads > 10_000) {
      throw new IllegalArgumentException(
          "more than 10,000 threads in all; that is not a load test");
    }
    if (!(groups.delaySeconds() >= 0)
        || !(c.timeout > 0)
        || !(c.rate >= 0)
        || !(c.drainTimeout >= 0)) {
      throw new IllegalArgumentException(
          "delay, --rate and --drain-timeout must be >= 0 and --timeout > 0");
    }
  }

  /** {@code --io-threads}, else one per available processor. */
  private static int ioThreads(ClientCommand c) {
    int ioThreads = c.ioThreads != null ? c.ioThreads : Runtime.getRuntime().availableProcessors();
    if (ioThreads < 1) {
      throw new IllegalArgumentException("--io-threads must be >= 1, was " + ioThreads);
    }
    return ioThreads;
  }

  /** Where the queue's depth is read: the management API and the broker, each unless 'none'. */
  private static ClientConfig.Broker broker(ClientCommand c, Env settings) {
    String api = ClientSettings.RMQ_API.read(settings);
    String amqp = ClientSettings.AMQP_URI.read(settings);
    String q = ClientSettings.QUEUE.read(settings);
    if (!ClientSettings.OFF.equals(amqp)) {
      new AmqpSettings(amqp, q, AmqpSettings.QueueType.CLASSIC); // validates the scheme now
    }
    Optional<ClientConfig.ManagementApi> managementApi =
        ClientSettings.OFF.equals(api)
            ? Optional.empty()
            : Optional.of(
                new ClientConfig.ManagementApi(
                    api,
                    c.vhost,
                    ClientSettings.RMQ_USER.read(settings),
                    ClientSettings.RMQ_PASSWORD.read(settings)));
    return new ClientConfig.Broker(
        q, managementApi, ClientSettings.OFF.equals(amqp) ? Optional.empty() : Optional.of(amqp));
  }

  /** The tiers' metrics: the server's by default under {@code baseUrl}. */
  private static ClientConfig.Tiers tiers(Env settings, String baseUrl) {
    Optional<String> serverMetrics =
        metricsUrl(
            ClientSettings.SERVER_METRICS,
            Objects.requireNonNullElse(
                ClientSettings.SERVER_METRICS.read(settings),
                baseUrl + ClientSettings.METRICS_PATH));
    Optional<String> consumerMetrics =
        metricsUrl(ClientSettings.CONSUMER_METRICS, ClientSettings.CONSUMER_METRICS.read(settings));
    return new ClientConfig.Tiers(serverMetrics, consumerMetrics);
  }

  /** {@code --out}, else {@code results/runs/<yyyyMMdd-HHmmss>} of {@code now}. */
  private static Path outDir(ClientCommand c, LocalDateTime now) {
    return c.out != null
        ? c.out
        : Path.of("results", "runs", now.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
  }

  private static void thresholds(List<Threshold> into, Threshold.Metric m, List<String> values) {
    if (values != null) {
      values.forEach(v -> into.add(Threshold.parse(m, v)));
    }
  }

  /**
   * One URL, or several separated by commas (every instance of a tier); empty for 'none'. Fails
   * naming the option when one is not HTTP(S).
   */
  private static Optional<String> metricsUrl(Setting<String> setting, String u) {
    if (ClientSettings.OFF.equals(u)) {
      return Optional.empty();
    }
    for (String one : u.split(",", -1)) {
      if (!one.startsWith("http://") && !one.startsWith("https://")) {
        throw new IllegalArgumentException(
            setting.flag()
                + " must be http:// or https:// URLs, separated by commas, or '"
                + ClientSettings.OFF
                + "', was "
                + u);
      }
    }
    return Optional.of(u);
  }

  private static String checkUrl(String u) {
    if (!u.startsWith("http://") && !u.startsWith("https://")) {
      throw new IllegalArgumentException(
          "the base URL must start with http:// or https://, was " + u);
    }
    while (u.endsWith("/")) {
      u = u.substring(0, u.length() - 1);
    }
    return u;
  }

  private static void atLeast(String name, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
    }
  }

  private static Duration seconds(double s) {
    return Duration.ofNanos(Math.round(s * 1e9));
  }
}
