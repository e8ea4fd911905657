package org.albumstore.common.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * One GET of a monitoring endpoint (a {@code /metrics} page, the RabbitMQ management API) on the
 * JDK's {@link HttpURLConnection}, not the load's connections: a probe that queued behind the load
 * would stop reading exactly when the numbers matter, and must not count in it.
 *
 * <p>Not the JDK's {@code java.net.http.HttpClient}: building one sets up its default TLS context
 * (the trust store; about 400 classes of TLS alone) and a selector thread, in a cold JVM before the
 * load can start, and the client built one per endpoint. {@code HttpURLConnection} loads TLS only
 * for an {@code https} URL, and keeps the connection alive between reads when the body was read to
 * its end. With Netty's JFR types left out too, the load starts 0.35 s sooner after the launch
 * (results/client-cost/start-up/: 1.41 against 1.73 s, 10 pairs). No proxy, as before.
 */
public final class ProbeGet {
  /** The status and body of a response. */
  public record Response(int status, byte[] body) {}

  private ProbeGet() {}

  /**
   * @param timeout for connecting, and for each read of the response
   * @throws IOException when the endpoint cannot be reached or the response cannot be read; any
   *     status, 4xx and 5xx included, is a {@link Response}
   */
  public static Response get(URI uri, Duration timeout, Map<String, String> headers)
      throws IOException {
    HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
    int millis = Math.toIntExact(timeout.toMillis());
    c.setConnectTimeout(millis);
    c.setReadTimeout(millis);
    c.setUseCaches(false);
    headers.forEach(c::setRequestProperty);
    int status = c.getResponseCode();
    InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
    if (in == null) {
      return new Response(status, new byte[0]);
    }
    try (in) {
      return new Response(status, in.readAllBytes());
    }
  }
}
