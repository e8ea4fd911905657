package org.albumstore.client;

/**
 * What {@link ClientMain#execute} returns.
 *
 * @param exitCode 0 success, 1 failed requests, verification mismatches or history violations, 2
 *     usage error, 3 the run could not be carried out (server unreachable, output not writable),
 *     130 interrupted
 * @param summary the run's report; null when no run took place (help, usage error)
 */
public record ClientResult(int exitCode, RunSummary summary) {}
