package org.albumstore.server.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.RandomUuids;
import org.junit.jupiter.api.Test;

class WaitPolicyTest {
  private static final long NOW = 1_764_000_000_000L;
  private static final int WINDOW = 60_000;
  private static final int SKEW = 2000;
  private final WaitPolicy policy = new WaitPolicy(new ReadWaitSettings(5000, WINDOW, SKEW, 10, 5));

  private boolean waitsFor(long issuedAt) {
    return policy.worthWaitingFor(Identifiers.newAlbumId(issuedAt), NOW);
  }

  @Test
  void anIdIssuedNowOrWithinTheWindowIsWaitedFor() {
    assertThat(waitsFor(NOW)).isTrue();
    assertThat(waitsFor(NOW - 1)).isTrue();
    assertThat(waitsFor(NOW - 30_000)).isTrue();
    assertThat(waitsFor(NOW - WINDOW)).isTrue(); // the edge is inside
  }

  @Test
  void anIdOlderThanTheWindowIsNot() {
    assertThat(waitsFor(NOW - WINDOW - 1)).isFalse();
    assertThat(waitsFor(NOW - 86_400_000L)).isFalse();
    assertThat(waitsFor(0)).isFalse();
  }

  @Test
  void anIdFromTheFutureIsWaitedForOnlyWithinTheClockSkewAllowance() {
    assertThat(waitsFor(NOW + 1)).isTrue();
    assertThat(waitsFor(NOW + SKEW)).isTrue(); // the edge is inside
    assertThat(waitsFor(NOW + SKEW + 1)).isFalse();
    assertThat(waitsFor(NOW + 365L * 86_400_000L)).isFalse();
  }

  @Test
  void aKeyDerivedIdCarriesNoTimeAndIsAlwaysWaitedFor() {
    assertThat(policy.worthWaitingFor(Identifiers.albumIdForKey("k-1"), NOW)).isTrue();
    assertThat(policy.worthWaitingFor(Identifiers.albumIdForKey("k-1"), 0)).isTrue();
  }

  @Test
  void numbersRandomUuidsAndOtherFormsAreNotWaitedFor() {
    assertThat(policy.worthWaitingFor("42", NOW)).isFalse();
    assertThat(policy.worthWaitingFor("album-7", NOW)).isFalse();
    assertThat(policy.worthWaitingFor(RandomUuids.next().toString(), NOW)).isFalse();
    assertThat(policy.worthWaitingFor(Identifiers.newAlbumId(NOW).toUpperCase(Locale.ROOT), NOW))
        .isFalse();
  }

  @Test
  void aMaxWaitOfZeroTurnsWaitingOff() {
    WaitPolicy off = new WaitPolicy(new ReadWaitSettings(0, WINDOW, SKEW, 10, 5));
    assertThat(off.worthWaitingFor(Identifiers.newAlbumId(NOW), NOW)).isFalse();
    assertThat(off.worthWaitingFor(Identifiers.albumIdForKey("k"), NOW)).isFalse();
  }
}
