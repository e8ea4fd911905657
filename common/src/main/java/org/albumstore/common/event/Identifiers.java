package org.albumstore.common.event;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * The identifier rules of the contract: album IDs and idempotency keys are 1 to 64 characters of
 * {@code [A-Za-z0-9_-]}, and IDs derived from an idempotency key are stable so that a retried write
 * needs no lookup to be recognised.
 *
 * <p>Album IDs also say where they came from, so that a GET can decide without the database whether
 * an album it does not find yet may still be on its way (read-your-writes, server's {@code
 * read/WaitPolicy}): a new album without a key gets a version 7 UUID, whose first 48 bits are the
 * Unix time in milliseconds at which it was issued ({@link #issuedAtMillis}); an album with a key
 * gets a version 3 (name-based) UUID of that key, which must stay the same on every retry and every
 * server and so carries no time ({@link #isDerivedFromKey}). Both are recognised only in the
 * canonical lower-case form this class produces.
 */
public final class Identifiers {
  public static final int MAX_LENGTH = 64;

  private Identifiers() {}

  /** True when {@code s} is a valid album ID (also used for idempotency keys). */
  public static boolean isValidToken(String s) {
    // A loop, not a regex: it runs on every request (album ID, idempotency key) on both sides.
    if (s == null || s.isEmpty() || s.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** A new album ID for a write that carries no idempotency key: a v7 UUID of the current time. */
  public static String newAlbumId() {
    return newAlbumId(System.currentTimeMillis());
  }

  /** A new album ID issued at {@code unixMillis}. */
  public static String newAlbumId(long unixMillis) {
    return RandomUuids.timeOrdered(unixMillis).toString();
  }

  /**
   * When the album ID was issued, if it is a v7 UUID in canonical form (whatever its time says:
   * judging it is the reader's business); empty for every other ID.
   */
  public static OptionalLong issuedAtMillis(String albumId) {
    UUID u = canonicalUuid(albumId);
    if (u == null || u.version() != 7 || u.variant() != 2) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(RandomUuids.timeOf(u));
  }

  /**
   * True when the album ID has the form of {@link #albumIdForKey} (a v3 UUID in canonical form).
   * The key itself cannot be recovered, so a forged ID of this form cannot be told apart.
   */
  public static boolean isDerivedFromKey(String albumId) {
    UUID u = canonicalUuid(albumId);
    return u != null && u.version() == 3 && u.variant() == 2;
  }

  /**
   * The album ID of a {@code POST /albums} with this idempotency key: the same key, the same ID.
   */
  public static String albumIdForKey(String idempotencyKey) {
    return nameBased("album:" + idempotencyKey).toString();
  }

  /** The event ID of a review with this idempotency key: the same key, the same event. */
  public static UUID reviewEventIdForKey(String idempotencyKey) {
    return nameBased("review:" + idempotencyKey);
  }

  /**
   * The UUID of exactly {@code 8-4-4-4-12} lower-case hex digits, else null. {@link
   * UUID#fromString} alone also takes shortened and upper-case forms, which this code never issues.
   */
  private static UUID canonicalUuid(String s) {
    if (s == null || s.length() != 36) {
      return null;
    }
    for (int i = 0; i < 36; i++) {
      char c = s.charAt(i);
      boolean ok =
          (i == 8 || i == 13 || i == 18 || i == 23)
              ? c == '-'
              : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
      if (!ok) {
        return null;
      }
    }
    return UUID.fromString(s);
  }

  private static UUID nameBased(String name) {
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
  }
}
