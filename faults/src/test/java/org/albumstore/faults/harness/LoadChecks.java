package org.albumstore.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every load must show whatever the fault: each write ended in a 200 (none given up), no
 * answer other than 200 and 503, every 503 with {@code Retry-After}, every error with a JSON {@code
 * msg}, and every album ID the one its Idempotency-Key determines.
 */
public final class LoadChecks {
  private LoadChecks() {}

  public static void assertClean(LoadStats s) {
    assertThat(s.otherStatuses()).as("answers other than 200/503: " + s).isZero();
    assertThat(s.writesGivenUp()).as("writes that never got a 200: " + s).isZero();
    assertThat(s.missingRetryAfter()).as("503s without Retry-After: " + s).isZero();
    assertThat(s.errorsWithoutMsg()).as("errors without a JSON msg: " + s).isZero();
    assertThat(s.wrongAlbumIds()).as("albumIDs not derived from the key: " + s).isZero();
  }
}
