package org.albumstore.client.internal.check;

import java.util.Locale;
import org.albumstore.client.RequestType;
import org.albumstore.client.TypeStats;
import org.albumstore.client.internal.stats.RunStatistics;

/**
 * One pass/fail criterion of a run, checked once at its end: a metric of one row of the report (a
 * request type, or all writes together) against a limit.
 *
 * @param scope the report row, a {@link RequestType} label or {@link RunStatistics#ALL_WRITES}
 */
public record Threshold(Metric metric, String scope, double limit) {

  /** What is compared, and which way. */
  public enum Metric {
    MAX_P99("--max-p99", "p99 (ms)", true),
    MAX_ERROR_RATE("--max-error-rate", "error rate", true),
    MIN_THROUGHPUT("--min-throughput", "throughput (req/s)", false);

    private final String option;
    private final String label;
    private final boolean upperBound;

    Metric(String option, String label, boolean upperBound) {
      this.option = option;
      this.label = label;
      this.upperBound = upperBound;
    }

    public String option() {
      return option;
    }

    public String label() {
      return label;
    }

    /** True when the value must stay at or below the limit, false when at or above. */
    public boolean upperBound() {
      return upperBound;
    }

    /** This metric's value in a report row. */
    public double valueOf(TypeStats s) {
      return switch (this) {
        case MAX_P99 -> s.p99Ms();
        case MAX_ERROR_RATE -> s.count() == 0 ? 0 : (double) s.failed() / s.count();
        case MIN_THROUGHPUT -> s.throughput();
      };
    }
  }

  /**
   * Parses one option value: {@code LIMIT} (all writes) or {@code TYPE=LIMIT}, e.g. {@code POST
   * /albums=80}.
   *
   * @throws IllegalArgumentException naming the option when the value cannot be used
   */
  public static Threshold parse(Metric metric, String value) {
    int eq = value.lastIndexOf('=');
    String scope = eq < 0 ? RunStatistics.ALL_WRITES : value.substring(0, eq).trim();
    String number = value.substring(eq + 1).trim();
    if (!scope.equals(RunStatistics.ALL_WRITES)) {
      try {
        RequestType.fromLabel(scope);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            metric.option() + ": " + e.getMessage() + "; use a report row such as 'POST /albums'");
      }
    }
    double limit;
    try {
      limit = Double.parseDouble(number);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          metric.option() + " takes [TYPE=]NUMBER, was '" + value + "'");
    }
    if (!(limit >= 0) || Double.isInfinite(limit)) {
      throw new IllegalArgumentException(metric.option() + " must be >= 0, was " + number);
    }
    if (metric == Metric.MAX_ERROR_RATE && limit > 1) {
      throw new IllegalArgumentException(
          metric.option() + " is a fraction between 0 and 1, was " + number);
    }
    return new Threshold(metric, scope, limit);
  }

  /** The outcome of this threshold against a row's figures. */
  public ThresholdResult check(TypeStats row) {
    double value = metric.valueOf(row);
    boolean passed = metric.upperBound() ? value <= limit : value >= limit;
    return new ThresholdResult(
        metric.option(), metric.label(), scope, limit, value, passed ? "pass" : "FAIL");
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s %s=%s", metric.option(), scope, limit);
  }
}
