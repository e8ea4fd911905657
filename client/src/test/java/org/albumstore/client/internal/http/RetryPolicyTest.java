package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private final RetryPolicy policy = RetryPolicy.of(5);

  @Test
  void backoffGrowsExponentiallyWithJitterUpToTheCap() {
    for (int attempt = 1; attempt <= 12; attempt++) {
      long full = Math.min(1_000, 20L << (attempt - 1));
      for (int i = 0; i < 50; i++) {
        Duration d = policy.delayAfter(attempt, null);
        assertThat(d.toMillis()).isBetween(full / 2, full);
      }
    }
  }

  @Test
  void retryAfterReadsSecondsAndDates() {
    ZonedDateTime now = ZonedDateTime.of(2025, 11, 22, 8, 0, 0, 0, ZoneOffset.UTC);
    assertThat(RetryPolicy.parseRetryAfter("3", now)).isEqualTo(Duration.ofSeconds(3));
    assertThat(RetryPolicy.parseRetryAfter("Sat, 22 Nov 2025 08:00:05 GMT", now))
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(RetryPolicy.parseRetryAfter("Sat, 22 Nov 2025 07:00:00 GMT", now))
        .isEqualTo(Duration.ZERO);
    assertThat(RetryPolicy.parseRetryAfter("soon", now)).isNull();
    assertThat(RetryPolicy.parseRetryAfter("-1", now)).isNull();
    assertThat(RetryPolicy.parseRetryAfter(null, now)).isNull();
  }
}
