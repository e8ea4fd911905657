package org.albumstore.client.internal.http;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ThreadLocalRandom;
import org.albumstore.client.history.ApiResponse;

/**
 * How often and how long to wait before retrying a failed attempt.
 *
 * <p>The wait is exponential with jitter so that hundreds of threads that failed together (a broker
 * hiccup answered with 503) do not come back together. A server's {@code Retry-After} is honoured
 * but capped: it is a hint for interactive clients, and a load test that slept 60 s on it would
 * stop measuring anything.
 *
 * @param retries retries after the first attempt; {@code retries + 1} attempts in all
 * @param baseBackoff the wait before the first retry (before jitter)
 * @param maxBackoff the longest exponential wait
 * @param retryAfterCap the longest wait taken from a {@code Retry-After} header
 */
public record RetryPolicy(
    int retries, Duration baseBackoff, Duration maxBackoff, Duration retryAfterCap) {
  public static final Duration BASE_BACKOFF = Duration.ofMillis(20);
  public static final Duration MAX_BACKOFF = Duration.ofSeconds(1);
  public static final Duration RETRY_AFTER_CAP = Duration.ofSeconds(2);

  public RetryPolicy {
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be >= 0, was " + retries);
    }
  }

  public static RetryPolicy of(int retries) {
    return new RetryPolicy(retries, BASE_BACKOFF, MAX_BACKOFF, RETRY_AFTER_CAP);
  }

  /**
   * The wait after the {@code failedAttempts}-th failed attempt.
   *
   * @param response the failed attempt's response, or null after an I/O error
   */
  public Duration delayAfter(int failedAttempts, ApiResponse response) {
    if (response != null && response.retryAfter() != null) {
      Duration hinted = response.retryAfter();
      return hinted.compareTo(retryAfterCap) > 0 ? retryAfterCap : hinted;
    }
    long base = baseBackoff.toNanos();
    int shift = Math.min(Math.max(failedAttempts - 1, 0), 20);
    long exp = Math.min(maxBackoff.toNanos(), base << shift);
    // "Equal jitter": at least half the exponential wait, so a retry never comes back instantly.
    long half = exp / 2;
    return Duration.ofNanos(half + ThreadLocalRandom.current().nextLong(half + 1));
  }

  /**
   * Reads a {@code Retry-After} value: delta-seconds or an HTTP date.
   *
   * @return the wait, or null when absent or unreadable (then the exponential wait applies)
   */
  public static Duration parseRetryAfter(String header, ZonedDateTime now) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String v = header.trim();
    try {
      long seconds = Long.parseLong(v);
      return seconds < 0 ? null : Duration.ofSeconds(seconds);
    } catch (NumberFormatException notSeconds) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration d = Duration.between(now, at);
        return d.isNegative() ? Duration.ZERO : d;
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }
}
