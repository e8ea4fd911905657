package org.albumstore.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.albumstore.client.internal.check.Threshold;
import org.albumstore.client.internal.http.TransportKind;
import org.albumstore.client.internal.workload.Workload;
import org.albumstore.common.config.DatabaseSettings;

/**
 * Everything a run needs, read once from the command line and the environment ({@link
 * ConfigResolver#resolve}) and passed in; nothing deeper reads either.
 *
 * @param url base URL, no trailing slash
 * @param rate requests per second in the open model; 0 for the closed model
 * @param image the file to upload, or null for the built-in PNG
 * @param rmqApi management API base URL, or null when off
 * @param amqpUri AMQP URI of the fallback depth probe, or null when off
 * @param serverMetrics the server's metrics URL, or null when off
 * @param consumerMetrics the consumer's metrics URL, or null when off
 * @param workload what a writer iteration does
 * @param startupPhase run the course's start-up phase before the groups
 * @param duration writers stop starting iterations this long after the load started; zero for no
 *     time bound ({@code iterations} only)
 * @param rateSteps the stepped open model's rates, each for {@code stepDuration}; empty when off
 * @param rateRamp the ramped open model's first and last rate, over {@code duration}; empty when
 *     off
 * @param thresholds pass/fail criteria checked at the end
 * @param baseline an earlier run's {@code summary.json} to compare with, or null
 * @param runId the run's ID, or null to make one at the start
 * @param transport what sends the requests
 * @param ioThreads the Netty transport's event-loop threads
 * @param readBackPercent the share of writers that read back what they wrote ({@code --read-back})
 * @param history record the operation history and judge it at the end
 * @param historyDatabase where the history's checker reads the rows, or null for the reads only
 * @param watching the metrics endpoint and the live page
 */
record ClientConfig(
    String url,
    int groupSize,
    int groups,
    Duration delay,
    int iterations,
    int getThreads,
    int retries,
    Duration timeout,
    double rate,
    int warmupIterations,
    Path image,
    Path outDir,
    String rmqApi,
    String rmqUser,
    String rmqPassword,
    String vhost,
    String queue,
    String amqpUri,
    boolean verify,
    Duration drainTimeout,
    int verifyThreads,
    boolean progress,
    String serverMetrics,
    String consumerMetrics,
    Workload workload,
    boolean startupPhase,
    Duration duration,
    List<Double> rateSteps,
    List<Double> rateRamp,
    Duration stepDuration,
    List<Threshold> thresholds,
    Path baseline,
    String runId,
    TransportKind transport,
    int ioThreads,
    int readBackPercent,
    boolean history,
    DatabaseSettings historyDatabase,
    Watching watching) {

  /**
   * What serves the run's figures while it runs.
   *
   * @param metricsPort the port of {@code /metrics}, 0 any, -1 none
   * @param livePort the live page's port, 0 any, -1 none
   * @param bind the local address both listen on
   * @param linger how long the live page stays up after the run
   */
  record Watching(int metricsPort, int livePort, String bind, Duration linger) {
    static final Watching NONE = new Watching(-1, -1, ClientCommand.DEFAULT_BIND, Duration.ZERO);

    boolean any() {
      return metricsPort >= 0 || livePort >= 0;
    }
  }

  public int writers() {
    return groupSize * groups;
  }

  /**
   * Whether writer {@code i} reads back: {@code readBackPercent} of the writers, spread evenly over
   * the indexes (and so over the thread groups).
   */
  public boolean readsBack(int writer) {
    return (writer + 1L) * readBackPercent / 100 > (long) writer * readBackPercent / 100;
  }

  @Override
  public String toString() {
    return "ClientConfig[url="
        + url
        + ", groups="
        + groups
        + "x"
        + groupSize
        + ", delay="
        + delay
        + ", iterations="
        + iterations
        + ", workload="
        + workload.cliName()
        + (startupPhase ? ", startup phase" : "")
        + ", getThreads="
        + getThreads
        + ", rate="
        + rate
        + (rateSteps.isEmpty() ? "" : ", rateSteps=" + rateSteps + " x " + stepDuration)
        + (rateRamp.isEmpty() ? "" : ", rateRamp=" + rateRamp)
        + (duration.isZero() ? "" : ", duration=" + duration)
        + (thresholds.isEmpty() ? "" : ", thresholds=" + thresholds)
        + (readBackPercent == 0 ? "" : ", readBack=" + readBackPercent + "%")
        + (history ? ", history" : "")
        + ", transport="
        + transport.cliName()
        + (transport == TransportKind.NETTY ? " on " + ioThreads + " I/O threads" : "")
        + ", queue="
        + queue
        + ", out="
        + outDir
        + "]";
  }
}
