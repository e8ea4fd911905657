package org.albumstore.client.internal.http;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Which {@link Transport} a run sends with ({@code --transport}). */
public enum TransportKind {
  /** {@link NettyTransport}: a few event-loop threads; the cheaper per request. */
  NETTY("netty"),
  /** {@link ApacheTransport}: Apache HttpClient 5 classic, a blocking socket per thread. */
  CLASSIC("classic");

  private final String cliName;

  TransportKind(String cliName) {
    this.cliName = cliName;
  }

  public String cliName() {
    return cliName;
  }

  public static TransportKind fromCliName(String name) {
    for (TransportKind k : values()) {
      if (k.cliName.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "--transport must be one of " + choices() + ", was '" + name + "'");
  }

  /** E.g. {@code netty, classic}. */
  public static String choices() {
    return Arrays.stream(values()).map(TransportKind::cliName).collect(Collectors.joining(", "));
  }

  /**
   * @param connections the most requests in flight at once (the classic pool's size; Netty's pool
   *     grows to it by itself)
   * @param ioThreads Netty's event-loop threads (unused by classic)
   */
  public Transport open(String baseUrl, int connections, int ioThreads, Duration timeout)
      throws IOException {
    return this == NETTY
        ? new NettyTransport(baseUrl, ioThreads, timeout)
        : new ApacheTransport(baseUrl, connections, timeout);
  }
}
