package org.albumstore.common.event;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The identifier rules of the contract: album IDs and idempotency keys are 1 to 64 characters of
 * {@code [A-Za-z0-9_-]}, and IDs derived from an idempotency key are stable so that a retried write
 * needs no lookup to be recognised.
 */
public final class Identifiers {
  public static final int MAX_LENGTH = 64;
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private Identifiers() {}

  /** True when {@code s} is a valid album ID (also used for idempotency keys). */
  public static boolean isValidToken(String s) {
    return s != null && TOKEN.matcher(s).matches();
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
