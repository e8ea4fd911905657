package org.albumstore.client.internal.check;

/**
 * A checked threshold, as {@code summary.json} and the report show it.
 *
 * @param option the flag that set it, e.g. {@code --max-p99}
 * @param metric what was compared, e.g. {@code p99 (ms)}
 * @param scope the report row, e.g. {@code all writes}
 * @param result {@code pass} or {@code FAIL}
 */
public record ThresholdResult(
    String option, String metric, String scope, double limit, double value, String result) {

  public boolean passed() {
    return "pass".equals(result);
  }
}
