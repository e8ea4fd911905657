package org.albumstore.common.metrics;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Reads the {@code X-Request-Start} header: when the client (or a load balancer in front of the
 * server) sent the request, as wall-clock time since the epoch. The usual forms are accepted:
 * {@code t=1700000000123456} (microseconds, what the Album Store client sends), milliseconds or
 * nanoseconds told apart by their size, and {@code t=1700000000.123} (seconds, as nginx's {@code
 * $msec} writes it).
 *
 * <p>Why the wall clock: it is the only clock two processes share. Between hosts it is only as good
 * as their clock synchronisation, so a delay below zero or above a minute is taken as skew and
 * dropped rather than recorded.
 */
public final class RequestStart {
  public static final String HEADER = "X-Request-Start";
  private static final long MAX_DELAY_NANOS = TimeUnit.MINUTES.toNanos(1);

  private RequestStart() {}

  /** The header's value for a request sent at {@code sent}: {@code t=<epoch microseconds>}. */
  public static String value(Instant sent) {
    return "t=" + (sent.getEpochSecond() * 1_000_000L + sent.getNano() / 1000);
  }

  /** The nanoseconds from the header's instant to {@code now}, or -1 when absent or implausible. */
  public static long delayNanos(String header, Instant now) {
    if (header == null) {
      return -1;
    }
    String v = header.trim();
    if (v.startsWith("t=")) {
      v = v.substring(2);
    }
    long sentMicros;
    try {
      if (v.indexOf('.') >= 0) {
        sentMicros = Math.round(Double.parseDouble(v) * 1e6);
      } else {
        long n = Long.parseLong(v);
        // Since 2001-09-09 a time is over 1e12 in ms, 1e15 in µs, 1e18 in ns: the size tells the
        // unit.
        if (n >= 1_000_000_000_000_000_000L) {
          sentMicros = n / 1000; // nanoseconds
        } else if (n >= 1_000_000_000_000_000L) {
          sentMicros = n; // microseconds
        } else {
          sentMicros = n * 1000; // milliseconds
        }
      }
    } catch (NumberFormatException e) {
      return -1;
    }
    long nowMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    long delay = (nowMicros - sentMicros) * 1000;
    return delay < 0 || delay > MAX_DELAY_NANOS ? -1 : delay;
  }
}
