package org.albumstore.client;

import java.util.List;
import java.util.Map;

/**
 * The runs of several clients of one test as one ({@code merge}): what its report prints and its
 * {@code summary.json} holds.
 *
 * @param runs the run directories merged
 * @param wallSeconds the longest of the runs' wall times
 * @param throughput successful writes per second, summed over the clients
 * @param requests one row per request type: counts and rates summed, latency percentiles from the
 *     merged histograms
 * @param failures failed requests by cause, summed
 */
public record MergedSummary(
    String tool,
    String runId,
    List<String> runs,
    double wallSeconds,
    double throughput,
    List<TypeStats> requests,
    TypeStats allWrites,
    Map<String, Long> failures,
    RunSummary.Verification verification,
    int exitCode) {}
