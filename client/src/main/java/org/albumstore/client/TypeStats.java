package org.albumstore.client;

/**
 * The final figures of one request type (or of all writes together). Latencies are in milliseconds
 * and cover successful requests only; failures are counted, and their causes listed, separately.
 *
 * @param type the label, e.g. {@code POST /albums} or {@code all writes}
 * @param count finished requests ({@code ok + failed})
 * @param ok requests that succeeded, possibly after retries
 * @param failed requests that still failed after all retries
 * @param retries retried attempts (across all requests)
 * @param throughput successful requests per second of wall time
 */
public record TypeStats(
    String type,
    long count,
    long ok,
    long failed,
    long retries,
    double throughput,
    double meanMs,
    double minMs,
    double p50Ms,
    double p95Ms,
    double p99Ms,
    double p999Ms,
    double maxMs) {}
