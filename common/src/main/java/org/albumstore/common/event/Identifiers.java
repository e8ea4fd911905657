package org.albumstore.common.event;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The identifier rules of the contract: album IDs and idempotency keys are 1 to 64 characters of
 * {@code [A-Za-z0-9_-]}, and IDs derived from an idempotency key are stable so that a retried write
 * needs no lookup to be recognised.
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

  /** A new album ID for a write that carries no idempotency key. */
  public static String newAlbumId() {
    return UUID.randomUUID().toString();
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

  private static UUID nameBased(String name) {
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
  }
}
