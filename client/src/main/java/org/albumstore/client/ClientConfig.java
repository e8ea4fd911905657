package org.albumstore.client;

import java.nio.file.Path;
import java.time.Duration;
import org.albumstore.client.workload.Workload;

/**
 * Everything a run needs, read once from the command line and the environment ({@link
 * ClientCommand#toConfig}) and passed in; nothing deeper reads either.
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
 */
public record ClientConfig(
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
    boolean startupPhase) {

  public int writers() {
    return groupSize * groups;
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
        + ", queue="
        + queue
        + ", out="
        + outDir
        + "]";
  }
}
