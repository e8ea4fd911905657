package org.albumstore.embedded.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP forwarder put between a component and the broker or the database, so that a test
 * can take the service away from that one component without touching the service itself (which
 * other tests, and other programs on the machine, keep using).
 *
 * <ul>
 *   <li>{@link #cut()}: resets every open connection and refuses new ones (connection refused), as
 *       when the service's host goes away;
 *   <li>{@link #restore()}: accepts again, on the same port, so the component's URL stays valid;
 *   <li>{@link #dropConnections()}: resets every open connection but goes on accepting, as when a
 *       network path fails for a moment.
 * </ul>
 *
 * <p>Shared by the consumer's outage tests and the faults module.
 */
public final class TcpProxy implements AutoCloseable {
  private final String targetHost;
  private final int targetPort;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket server;
  private int port;

  private TcpProxy(String targetHost, int targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
  }

  /** A proxy to {@code targetHost:targetPort}, accepting on a free loopback port. */
  public static TcpProxy start(String targetHost, int targetPort) throws IOException {
    return new TcpProxy(targetHost, targetPort).restore();
  }

  /** Starts accepting (again) on the same port as before, or on a free one the first time. */
  public synchronized TcpProxy restore() throws IOException {
    if (server != null && !server.isClosed()) {
      return this;
    }
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 512);
    port = s.getLocalPort();
    server = s;
    Thread t = new Thread(() -> acceptLoop(s), "test-proxy-accept-" + port);
    t.setDaemon(true);
    t.start();
    return this;
  }

  public int port() {
    return port;
  }

  private void acceptLoop(ServerSocket s) {
    while (!s.isClosed()) {
      Socket client;
      try {
        client = s.accept();
      } catch (IOException e) {
        return; // closed by cut(): stop accepting
      }
      try {
        Socket upstream = new Socket(targetHost, targetPort);
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        // Registered under the lock cut() holds: a connection accepted just before a cut is
        // either reset by it or sees the closed listener here and is reset, never left open.
        synchronized (this) {
          if (s.isClosed()) {
            reset(client);
            reset(upstream);
            return;
          }
          sockets.add(client);
          sockets.add(upstream);
        }
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        // The target refused: the component sees its connection reset, as it would directly.
        reset(client);
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[64 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                  out.write(buf, 0, n);
                }
              } catch (IOException e) {
                // Either side closed (or cut() reset them): close both below.
              } finally {
                close(from);
                close(to);
              }
            },
            "test-proxy-pump-" + port);
    t.setDaemon(true);
    t.start();
  }

  /** Refuses new connections and resets the open ones: the service is gone for the component. */
  public synchronized void cut() {
    close(server);
    dropConnections();
  }

  /** Resets every open connection; new ones are still accepted. */
  public synchronized void dropConnections() {
    for (Socket s : sockets) {
      reset(s);
    }
    sockets.clear();
  }

  @Override
  public void close() {
    cut();
  }

  private static void reset(Socket s) {
    try {
      s.setSoLinger(true, 0); // RST rather than FIN: an abrupt loss, as when a host dies
    } catch (IOException e) {
      // Already closed: nothing to reset.
    }
    close(s);
  }

  private static void close(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      // A socket being torn down on purpose: a failed close changes nothing for the test.
    }
  }
}
