package org.albumstore.common.event;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Random UUIDs without {@link UUID#randomUUID()}'s one JVM-wide generator: every thread asking that
 * generator serialises on it, and every new album needs one per request, as does every broker
 * message (its ID). Here each thread owns a SHA1PRNG seeded from the system's entropy source on
 * first use: one SHA-1 block per UUID, and 160 bits of state per thread, so IDs stay unique across
 * threads, servers and restarts without any coordination. (The DRBG algorithm was measured at ten
 * times the cost.)
 *
 * <p>Two forms: {@link #next()} is version 4 (122 random bits: the event IDs of unkeyed reviews in
 * version 1 messages); {@link #timeOrdered(long)} is version 7 (RFC 9562 §5.7: a 48-bit Unix
 * millisecond timestamp, then 74 random bits: album IDs, so that any server can tell from the ID
 * alone when it was issued, and message IDs, so that the ledger's index takes them near its right
 * edge). Within one millisecond v7 IDs here are not ordered among themselves (RFC 9562 makes that
 * optional): nothing needs them ordered that finely, and 74 random bits per millisecond keep them
 * unique.
 */
public final class RandomUuids {
  private static final ThreadLocal<SecureRandom> RNG =
      ThreadLocal.withInitial(RandomUuids::generator);

  /** The 48 bits of a v7 UUID's timestamp. */
  static final long MAX_V7_MILLIS = (1L << 48) - 1;

  private RandomUuids() {}

  /** A version 4 (random) UUID. */
  public static UUID next() {
    byte[] b = new byte[16];
    RNG.get().nextBytes(b);
    b[6] = (byte) ((b[6] & 0x0f) | 0x40); // version 4
    b[8] = (byte) ((b[8] & 0x3f) | 0x80); // IETF variant
    long msb = 0;
    long lsb = 0;
    for (int i = 0; i < 8; i++) {
      msb = (msb << 8) | (b[i] & 0xff);
      lsb = (lsb << 8) | (b[i + 8] & 0xff);
    }
    return new UUID(msb, lsb);
  }

  /**
   * A version 7 UUID carrying {@code unixMillis}: bits 0-47 the timestamp, 4 version bits (0111),
   * 12 random bits, the 2 IETF variant bits (10), 62 random bits.
   *
   * @throws IllegalArgumentException for a time outside the 48 bits (before 1970 or after 10889)
   */
  public static UUID timeOrdered(long unixMillis) {
    if (unixMillis < 0 || unixMillis > MAX_V7_MILLIS) {
      throw new IllegalArgumentException("time does not fit a v7 UUID: " + unixMillis);
    }
    SecureRandom rng = RNG.get();
    long randA = rng.nextInt() & 0x0fffL;
    long randB = rng.nextLong();
    long msb = (unixMillis << 16) | 0x7000L | randA;
    long lsb = (randB & 0x3fffffffffffffffL) | 0x8000000000000000L;
    return new UUID(msb, lsb);
  }

  /** The timestamp of a version 7 UUID (the caller checks the version). */
  public static long timeOf(UUID v7) {
    return v7.getMostSignificantBits() >>> 16;
  }

  private static SecureRandom generator() {
    try {
      SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
      r.nextBytes(new byte[1]); // self-seeds from the system's entropy source now, not mid-request
      return r;
    } catch (NoSuchAlgorithmException e) {
      return new SecureRandom(); // every JDK has SHA1PRNG; this is only a fallback
    }
  }
}
