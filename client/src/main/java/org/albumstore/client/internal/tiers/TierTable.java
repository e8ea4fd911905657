package org.albumstore.client.internal.tiers;

import java.util.List;

/**
 * "Time spent per tier": where a write request spends its time, from the client's send to its
 * response, and after the response until the write is visible in the database. Part of {@code
 * summary.json} (field names are its vocabulary); all times in milliseconds, null when unknown.
 *
 * @param serverMetrics the server endpoint read, or {@code none}
 * @param consumerMetrics the consumer endpoint read, or {@code none}
 * @param clientMeanMs the client-observed mean of successful writes
 * @param clientP99Ms the client-observed p99 of successful writes
 * @param clientCount successful writes
 * @param servletMeanMs the server-observed mean of the same requests (POST, 200)
 * @param servletCount how many the server counted (more than the client's when retries succeeded
 *     late, or another client was running)
 * @param requestPath the stages between send and response, all measured but the last, the remainder
 *     (client mean − the measured stages: the response's way back, derived)
 * @param requestPathSumMs the sum of the measured stages' means (the remainder left out), to
 *     compare with the client mean
 * @param afterResponse the stages after publishing, per write, until its commit
 * @param afterResponseSumMs their sum, to compare with {@code visibility}
 * @param visibility published → committed, measured on its own
 * @param largestShare the request-path stage with the largest mean, and its share
 * @param notes why rows are missing, and caveats
 */
public record TierTable(
    String serverMetrics,
    String consumerMetrics,
    double clientMeanMs,
    Double clientP99Ms,
    long clientCount,
    Double servletMeanMs,
    Long servletCount,
    List<Row> requestPath,
    Double requestPathSumMs,
    List<Row> afterResponse,
    Double afterResponseSumMs,
    Row visibility,
    String largestShare,
    List<String> notes) {

  /**
   * One stage.
   *
   * @param tier {@code network}, {@code server}, {@code broker}, {@code consumer} or {@code
   *     database}
   * @param stage what happens in it
   * @param p50Ms the median (null when unknown, and for derived rows)
   * @param count samples behind the figures (null for derived rows)
   * @param derived computed as a difference of two measurements, not measured itself (no p50, p99)
   */
  public record Row(
      String tier,
      String stage,
      Double meanMs,
      Double p50Ms,
      Double p99Ms,
      Long count,
      boolean derived) {

    /** {@code tier: stage}, e.g. {@code broker: publish -> confirm}. */
    public String label() {
      return tier + ": " + stage;
    }
  }
}
