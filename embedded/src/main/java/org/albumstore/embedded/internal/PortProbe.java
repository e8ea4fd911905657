package org.albumstore.embedded.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * Answers "does something accept TCP connections at this endpoint?", the test that picks a local
 * server over an embedded one and that rejects a configured address nobody listens on. A TCP
 * connect is all it checks: whether the server speaks the right protocol and accepts the
 * credentials is found out, with the server's own error, by the first real connection.
 */
@FunctionalInterface
public interface PortProbe {
  boolean answers(Endpoint endpoint);

  /** A TCP connect bounded by {@code timeout}; unknown hosts and refusals answer false. */
  static PortProbe tcp(Duration timeout) {
    int millis = Math.toIntExact(timeout.toMillis());
    return endpoint -> {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), millis);
        return true;
      } catch (IOException | IllegalArgumentException e) {
        return false;
      }
    };
  }
}
