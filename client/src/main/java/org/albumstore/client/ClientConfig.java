package org.albumstore.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.albumstore.client.internal.check.Threshold;
import org.albumstore.client.internal.http.TransportKind;
import org.albumstore.client.internal.workload.Workload;
import org.albumstore.common.config.DatabaseSettings;

/**
 * Everything a run needs, read once from the command line and the environment ({@link
 * ConfigResolver#resolve}) and passed in; nothing deeper reads either.
 *
 * <p>A few small records, one per concern, each built in one place of the resolver: a component of
 * one kind cannot take another's place unnoticed, and each part goes only where it is used ({@link
 * PostLoadCheck} gets the {@link Verification} alone). A source that can be turned off is an {@code
 * Optional}, empty when off; an open model that is not chosen is an empty list.
 *
 * @param target where the requests go and how they are sent
 * @param groups the thread groups of writers, and the readers beside them
 * @param writes what each writer does, and how often
 * @param pacing the closed model, or the open model at a rate, in steps or on a ramp
 * @param broker where the queue's depth is read
 * @param tiers the services' metrics, for the time-per-tier table
 * @param verification the drain wait and the read-back of every album after the load
 * @param history the operation history and its judgement
 * @param output where the run's files go and what its report compares and checks
 * @param watching the metrics endpoint and the live page
 */
record ClientConfig(
    Target target,
    Groups groups,
    Writes writes,
    Pacing pacing,
    Broker broker,
    Tiers tiers,
    Verification verification,
    History history,
    Output output,
    Watching watching) {

  /**
   * Where the requests go and how.
   *
   * @param url base URL, no trailing slash
   * @param transport what sends the requests
   * @param ioThreads the Netty transport's event-loop threads
   * @param timeout connect and response timeout of one attempt
   * @param retries retries of a request after a 4xx/5xx or an I/O error
   */
  record Target(
      String url, TransportKind transport, int ioThreads, Duration timeout, int retries) {}

  /**
   * The thread groups, in the course's order: a group of {@code size} writers starts, {@code delay}
   * later the next, until {@code count} groups run; {@code readers} read from the end of the first
   * group on.
   *
   * @param size writers per group
   * @param count groups
   * @param delay between the starts of two groups
   * @param readers threads calling {@code GET /review/{id}} ({@code --get-threads})
   */
  record Groups(int size, int count, Duration delay, int readers) {
    int writers() {
      return size * count;
    }
  }

  /**
   * What each writer does.
   *
   * @param workload what one iteration sends
   * @param iterations per writer; {@link RunSummary#UNBOUNDED_ITERATIONS} in a timed run without
   *     {@code --iterations}
   * @param image the file to upload, or empty for the built-in PNG
   * @param warmupIterations per writer of the first group before measuring
   * @param startupPhase run the course's start-up phase before the groups
   * @param readBackPercent the share of writers that read back what they wrote
   */
  record Writes(
      Workload workload,
      int iterations,
      Optional<Path> image,
      int warmupIterations,
      boolean startupPhase,
      int readBackPercent) {
    /**
     * Whether writer {@code i} reads back: {@code readBackPercent} of the writers, spread evenly
     * over the indexes (and so over the thread groups).
     */
    boolean readsBack(int writer) {
      return (writer + 1L) * readBackPercent / 100 > (long) writer * readBackPercent / 100;
    }
  }

  /**
   * The closed model or one of the open ones; at most one of {@code rate}, {@code steps} and {@code
   * ramp} is set.
   *
   * @param rate requests per second of the fixed open model; 0 for the closed model
   * @param steps the stepped open model's rates, each for {@code stepDuration}; empty when off
   * @param stepDuration a step's length, and a ramp's report row's
   * @param ramp the ramped open model's first and last rate, over {@code duration}; empty when off
   * @param duration writers stop starting iterations this long after the load started; zero for no
   *     time bound ({@code iterations} only)
   * @param endFile writers also stop once this file exists; absent when off
   */
  record Pacing(
      double rate,
      List<Double> steps,
      Duration stepDuration,
      List<Double> ramp,
      Duration duration,
      Optional<Path> endFile) {
    Pacing {
      steps = List.copyOf(steps);
      ramp = List.copyOf(ramp);
    }
  }

  /**
   * Where the queue's depth is read: the management API, else a passive declare on the broker.
   *
   * @param queue the server's queue
   * @param managementApi empty when off
   * @param amqpUri the broker of the fallback depth probe; empty when off
   */
  record Broker(String queue, Optional<ManagementApi> managementApi, Optional<String> amqpUri) {}

  /**
   * The RabbitMQ management API.
   *
   * @param url its base URL
   * @param vhost the virtual host of the queue
   */
  record ManagementApi(String url, String vhost, String user, String password) {
    @Override
    public String toString() {
      return "ManagementApi[url=" + url + ", vhost=" + vhost + ", user=" + user + "]";
    }
  }

  /**
   * The services' Prometheus metrics, each one URL or several separated by commas (every instance
   * of a tier).
   *
   * @param serverMetrics empty when off
   * @param consumerMetrics empty when off
   */
  record Tiers(Optional<String> serverMetrics, Optional<String> consumerMetrics) {}

  /**
   * After the load: wait for the queue to drain, then read back every album.
   *
   * @param enabled false with {@code --no-verify}
   * @param drainTimeout the longest wait for the queue to drain and the counts to agree
   * @param threads concurrent GETs while verifying
   */
  record Verification(boolean enabled, Duration drainTimeout, int threads) {}

  /**
   * The operation history ({@code --history}).
   *
   * @param recorded whether every attempt is recorded and judged at the end
   * @param database where the checker reads the rows; empty for the reads only (and when not
   *     recorded)
   */
  record History(boolean recorded, Optional<DatabaseSettings> database) {
    static final History OFF = new History(false, Optional.empty());
  }

  /**
   * The run's files and what its report adds.
   *
   * @param dir the run's directory
   * @param runId the run's ID, or empty to make one at the start
   * @param baseline an earlier run's {@code summary.json} to compare with, or empty
   * @param thresholds pass/fail criteria checked at the end
   * @param progress a progress line each second on stderr
   */
  record Output(
      Path dir,
      Optional<String> runId,
      Optional<Path> baseline,
      List<Threshold> thresholds,
      boolean progress) {
    Output {
      thresholds = List.copyOf(thresholds);
    }
  }

  /**
   * What serves the run's figures while it runs.
   *
   * @param metricsPort the port of {@code /metrics}, 0 any, -1 none
   * @param livePort the live page's port, 0 any, -1 none
   * @param bind the local address both listen on
   * @param linger how long the live page stays up after the run
   */
  record Watching(int metricsPort, int livePort, String bind, Duration linger) {
    boolean any() {
      return metricsPort >= 0 || livePort >= 0;
    }
  }

  @Override
  public String toString() {
    return "ClientConfig[url="
        + target.url()
        + ", groups="
        + groups.count()
        + "x"
        + groups.size()
        + ", delay="
        + groups.delay()
        + ", iterations="
        + writes.iterations()
        + ", workload="
        + writes.workload().cliName()
        + (writes.startupPhase() ? ", startup phase" : "")
        + ", getThreads="
        + groups.readers()
        + ", rate="
        + pacing.rate()
        + (pacing.steps().isEmpty()
            ? ""
            : ", rateSteps=" + pacing.steps() + " x " + pacing.stepDuration())
        + (pacing.ramp().isEmpty() ? "" : ", rateRamp=" + pacing.ramp())
        + (pacing.duration().isZero() ? "" : ", duration=" + pacing.duration())
        + (output.thresholds().isEmpty() ? "" : ", thresholds=" + output.thresholds())
        + (writes.readBackPercent() == 0 ? "" : ", readBack=" + writes.readBackPercent() + "%")
        + (history.recorded() ? ", history" : "")
        + ", transport="
        + target.transport().cliName()
        + (target.transport() == TransportKind.NETTY
            ? " on " + target.ioThreads() + " I/O threads"
            : "")
        + ", queue="
        + broker.queue()
        + ", out="
        + output.dir()
        + "]";
  }
}
