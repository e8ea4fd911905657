package org.albumstore.common.event;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdentifiersTest {

  @Test
  void tokensAreOneToSixtyFourSafeCharacters() {
    assertThat(Identifiers.isValidToken("42")).isTrue();
    assertThat(Identifiers.isValidToken("a-B_9")).isTrue();
    assertThat(Identifiers.isValidToken("x".repeat(64))).isTrue();
    assertThat(Identifiers.isValidToken("x".repeat(65))).isFalse();
    assertThat(Identifiers.isValidToken("")).isFalse();
    assertThat(Identifiers.isValidToken(null)).isFalse();
    assertThat(Identifiers.isValidToken("a b")).isFalse();
    assertThat(Identifiers.isValidToken("a/b")).isFalse();
    assertThat(Identifiers.isValidToken("é")).isFalse();
    assertThat(Identifiers.isValidToken("a\n")).isFalse();
    // The neighbours of every allowed range in ASCII.
    for (String c : new String[] {"/", ":", "@", "[", "`", "{", ".", "^", "\u0000"}) {
      assertThat(Identifiers.isValidToken("a" + c)).as(c).isFalse();
    }
    assertThat(Identifiers.isValidToken("azAZ09_-")).isTrue();
  }

  @Test
  void derivedIdsAreStablePerKeyAndDistinctAcrossKeysAndKinds() {
    assertThat(Identifiers.albumIdForKey("k1")).isEqualTo(Identifiers.albumIdForKey("k1"));
    assertThat(Identifiers.albumIdForKey("k1")).isNotEqualTo(Identifiers.albumIdForKey("k2"));
    assertThat(Identifiers.reviewEventIdForKey("k1"))
        .isEqualTo(Identifiers.reviewEventIdForKey("k1"));
    assertThat(Identifiers.reviewEventIdForKey("k1").toString())
        .isNotEqualTo(Identifiers.albumIdForKey("k1"));
    assertThat(Identifiers.isValidToken(Identifiers.albumIdForKey("k1"))).isTrue();
    assertThat(Identifiers.isValidToken(Identifiers.newAlbumId())).isTrue();
  }
}
