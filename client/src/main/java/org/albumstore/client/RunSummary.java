package org.albumstore.client;

import java.util.List;
import java.util.Map;
import org.albumstore.client.internal.check.Comparison;
import org.albumstore.client.internal.check.ThresholdResult;
import org.albumstore.client.internal.stats.StepRow;
import org.albumstore.client.internal.tiers.TierTable;
import org.albumstore.client.internal.verify.Mismatch;

/**
 * Everything a run reports: what the console tables print, what {@code summary.json} holds (field
 * names are the JSON's vocabulary; keep them stable), and what {@code ClientMain.execute} returns.
 *
 * @param wallSeconds from the first writer's start to the last writer's end (warm-up and
 *     verification excluded)
 * @param throughput successful writes per second of wall time
 * @param requests one entry per request type, in the fixed order of the tables
 * @param failures requests that failed after all retries, by {@code "<type>: <status|exception>"}
 * @param retriedAttempts attempts that failed and were retried, by the same key
 * @param tiers time spent per tier, from the server's and the consumer's metrics
 * @param crashedThreads load threads that died of an unexpected exception (a bug; logged)
 * @param csvRowsDropped per-request CSV rows lost because the disk could not keep up
 * @param steps the writes of each {@code --rate-steps} step; empty without steps
 * @param thresholds the pass/fail thresholds and how the run did; empty without thresholds
 * @param baseline this run beside {@code --baseline}'s; null without one
 * @param exitCode the process exit code the run ends with
 */
public record RunSummary(
    String tool,
    String version,
    String runId,
    String startedAt,
    String finishedAt,
    Settings settings,
    double wallSeconds,
    double throughput,
    List<TypeStats> requests,
    TypeStats allWrites,
    Map<String, Long> failures,
    Map<String, Long> retriedAttempts,
    Broker broker,
    Verification verification,
    TierTable tiers,
    int crashedThreads,
    long csvRowsDropped,
    List<StepRow> steps,
    List<ThresholdResult> thresholds,
    Comparison baseline,
    Outputs outputs,
    int exitCode) {

  /** The options the run used (passwords left out, URIs redacted). */
  /**
   * The iterations of a writer bounded by time alone ({@code --duration} or {@code --rate-steps}
   * without {@code --iterations}): the clock ends it long before.
   */
  public static final int UNBOUNDED_ITERATIONS = Integer.MAX_VALUE;

  public record Settings(
      String url,
      int groupSize,
      int groups,
      double delaySeconds,
      int iterations,
      int getThreads,
      int retries,
      double timeoutSeconds,
      double rate,
      int warmupIterations,
      String image,
      int imageBytes,
      String queue,
      String rmqApi,
      String amqpUri,
      boolean verify,
      double drainTimeoutSeconds,
      String workload,
      boolean startupPhase,
      double durationSeconds,
      List<Double> rateSteps,
      List<Double> rateRamp,
      double stepDurationSeconds) {}

  /**
   * The write queue over the run; null fields are unknown.
   *
   * @param source {@code management-api}, {@code amqp} or {@code n/a}
   * @param drain how the wait for an empty queue ended: {@code drained}, {@code ready-empty},
   *     {@code timed-out}, {@code unknown} or {@code not-awaited}
   * @param drainSeconds from the end of the load to the first empty reading
   */
  public record Broker(
      String source,
      String queue,
      Long maxDepth,
      Long depthAtEndOfLoad,
      String drain,
      Double drainSeconds,
      Double meanPublishRate,
      Double peakPublishRate,
      Double meanDeliverRate,
      Double peakDeliverRate) {}

  /**
   * @param status {@code ok}, {@code mismatches} or {@code skipped}
   * @param note why it was skipped, or how the expectation was read
   */
  public record Verification(
      String status,
      long albums,
      long mismatches,
      List<Mismatch> firstMismatches,
      int rounds,
      double seconds,
      String note) {

    public static Verification skipped(String why) {
      return new Verification("skipped", 0, 0, List.of(), 0, 0, why);
    }
  }

  /** Paths of the files the run wrote (null when one could not be written). */
  public record Outputs(
      String directory,
      String requestsCsv,
      String timelineCsv,
      String summaryJson,
      String chartPng,
      String spectrumPng,
      String reportHtml) {}

  /** The row of one request type, e.g. {@code "GET /review"}. */
  public TypeStats stats(String type) {
    return requests.stream()
        .filter(s -> s.type().equals(type))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no request type " + type));
  }

  public RunSummary withOutputs(Outputs o) {
    return new RunSummary(
        tool,
        version,
        runId,
        startedAt,
        finishedAt,
        settings,
        wallSeconds,
        throughput,
        requests,
        allWrites,
        failures,
        retriedAttempts,
        broker,
        verification,
        tiers,
        crashedThreads,
        csvRowsDropped,
        steps,
        thresholds,
        baseline,
        o,
        exitCode);
  }
}
