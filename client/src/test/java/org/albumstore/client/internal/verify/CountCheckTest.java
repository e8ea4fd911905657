package org.albumstore.client.internal.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.albumstore.client.internal.http.ReviewCounts;
import org.junit.jupiter.api.Test;

class CountCheckTest {
  private static final ExpectedCounts ALL_ACKED = new ExpectedCounts("a", 2, 0, 1, 0);

  @Test
  void exactlyTheAcknowledgedCountsAgree() {
    assertThat(CountCheck.problem(ALL_ACKED, ReviewCounts.found(2, 1))).isNull();
  }

  @Test
  void aLostOrDoubledWriteIsAMismatch() {
    assertThat(CountCheck.problem(ALL_ACKED, ReviewCounts.found(1, 1)))
        .isEqualTo("likes 1 (expected 2)");
    assertThat(CountCheck.problem(ALL_ACKED, ReviewCounts.found(3, 1)))
        .isEqualTo("likes 3 (expected 2)");
    assertThat(CountCheck.problem(ALL_ACKED, ReviewCounts.found(2, 0)))
        .isEqualTo("dislikes 0 (expected 1)");
    assertThat(CountCheck.problem(ALL_ACKED, ReviewCounts.found(0, 2)))
        .isEqualTo("likes 0 (expected 2), dislikes 2 (expected 1)");
  }

  @Test
  void aWriteThatFailedOnTheClientMayOrMayNotHaveBeenApplied() {
    ExpectedCounts oneLikeFailed = new ExpectedCounts("a", 1, 1, 1, 0);
    assertThat(CountCheck.problem(oneLikeFailed, ReviewCounts.found(1, 1))).isNull();
    assertThat(CountCheck.problem(oneLikeFailed, ReviewCounts.found(2, 1))).isNull();
    assertThat(CountCheck.problem(oneLikeFailed, ReviewCounts.found(3, 1)))
        .isEqualTo("likes 3 (expected 1 to 2)");
    assertThat(CountCheck.problem(oneLikeFailed, ReviewCounts.found(0, 1)))
        .isEqualTo("likes 0 (expected 1 to 2)");
  }

  @Test
  void anAlbumThatCannotBeReadIsAMismatch() {
    assertThat(CountCheck.problem(ALL_ACKED, ReviewCounts.notFound())).isEqualTo("not found (404)");
    assertThat(CountCheck.problem(ALL_ACKED, ReviewCounts.failed("503")))
        .isEqualTo("could not read the counts (503)");
    // An album with no acknowledged review must still exist.
    assertThat(CountCheck.problem(new ExpectedCounts("a", 0, 0, 0, 0), ReviewCounts.notFound()))
        .isNotNull();
  }
}
