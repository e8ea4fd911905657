package org.albumstore.common.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
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

  @Test
  void newAlbumIdsAreVersion7AndCarryTheirIssueTime() {
    long t = 1_764_000_000_123L;
    String id = Identifiers.newAlbumId(t);
    UUID u = UUID.fromString(id);
    assertThat(u.version()).isEqualTo(7);
    assertThat(u.variant()).isEqualTo(2);
    assertThat(id).isEqualTo(u.toString()); // canonical lower case
    assertThat(Identifiers.issuedAtMillis(id)).hasValue(t);
    assertThat(Identifiers.isDerivedFromKey(id)).isFalse();

    long before = System.currentTimeMillis();
    OptionalLong now = Identifiers.issuedAtMillis(Identifiers.newAlbumId());
    assertThat(now).isPresent();
    assertThat(now.getAsLong()).isBetween(before, System.currentTimeMillis());
  }

  @Test
  void newAlbumIdsIssuedInTheSameMillisecondAreDistinct() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      ids.add(Identifiers.newAlbumId(42L));
    }
    assertThat(ids).hasSize(10_000);
  }

  @Test
  void keyDerivedAlbumIdsAreRecognisedAndCarryNoTime() {
    String id = Identifiers.albumIdForKey("retry-me");
    assertThat(UUID.fromString(id).version()).isEqualTo(3);
    assertThat(Identifiers.isDerivedFromKey(id)).isTrue();
    assertThat(Identifiers.issuedAtMillis(id)).isEmpty();
  }

  @Test
  void otherIdsAreNeitherIssuedNorKeyDerived() {
    String v7 = Identifiers.newAlbumId(1000L);
    String v3 = Identifiers.albumIdForKey("k");
    for (String other :
        new String[] {
          "42",
          "my-album",
          RandomUuids.next().toString(), // v4
          v7.toUpperCase(Locale.ROOT), // not the form this code issues
          v3.toUpperCase(Locale.ROOT),
          v7.replace("-", ""),
          v3.replace("-", ""),
          v7 + "0",
          "0-0-0-0-0", // UUID.fromString takes it; the canonical check does not
        }) {
      assertThat(Identifiers.isDerivedFromKey(other)).as(other).isFalse();
      assertThat(Identifiers.issuedAtMillis(other)).as(other).isEmpty();
    }
  }

  @Test
  void aVersion7IdWithTheWrongVariantIsNotRecognised() {
    String v7 = Identifiers.newAlbumId(1000L);
    // Position 19 holds the variant nibble: 8, 9, a or b for the IETF variant; c is Microsoft's.
    String wrongVariant = v7.substring(0, 19) + "c" + v7.substring(20);
    assertThat(Identifiers.issuedAtMillis(wrongVariant)).isEmpty();
  }
}
