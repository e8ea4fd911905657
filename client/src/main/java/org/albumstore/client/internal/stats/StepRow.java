package org.albumstore.client.internal.stats;

/**
 * The writes of one {@code --rate-steps} step: what was asked, what was achieved, and latency.
 *
 * @param step 1-based
 * @param targetRate the step's rate, writes per second
 * @param fromSeconds start of the step, seconds since the load started
 * @param rate successful writes per second over the step's measured seconds
 */
public record StepRow(
    int step,
    double targetRate,
    double fromSeconds,
    double toSeconds,
    long ok,
    long failed,
    double rate,
    double p50Ms,
    double p99Ms,
    double p999Ms) {}
