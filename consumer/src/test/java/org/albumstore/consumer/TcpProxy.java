package org.albumstore.consumer;

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
 * A loopback TCP forwarder that tests put between the consumer and PostgreSQL or RabbitMQ to cut
 * the connection on purpose: {@link #dropConnections()} resets every open connection (the client
 * sees its peer vanish), {@link #stop()} also refuses new ones until {@link #start()}. Same port
 * each time, so the client's URL stays valid.
 */
final class TcpProxy implements AutoCloseable {
  private final String targetHost;
  private final int targetPort;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket server;
  private int port;

  TcpProxy(String targetHost, int targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
  }

  synchronized TcpProxy start() throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    port = s.getLocalPort();
    server = s;
    Thread t = new Thread(() -> acceptLoop(s), "it-proxy-accept-" + port);
    t.setDaemon(true);
    t.start();
    return this;
  }

  int port() {
    return port;
  }

  private void acceptLoop(ServerSocket s) {
    while (!s.isClosed()) {
      try {
        Socket client = s.accept();
        Socket upstream = new Socket(targetHost, targetPort);
        sockets.add(client);
        sockets.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        // The server socket was closed by stop(), or the target refused: the client sees a reset.
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
                // Either side closed; close both below.
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "it-proxy-pump-" + port);
    t.setDaemon(true);
    t.start();
  }

  /** Resets every connection through the proxy; new ones are still accepted. */
  void dropConnections() {
    for (Socket s : sockets) {
      try {
        s.setSoLinger(true, 0); // RST rather than FIN: an abrupt loss, as when a host dies
      } catch (IOException e) {
        // Already closed.
      }
      closeQuietly(s);
    }
    sockets.clear();
  }

  /** Refuses new connections and resets the open ones. */
  synchronized void stop() {
    closeQuietly(server);
    dropConnections();
  }

  @Override
  public void close() {
    stop();
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      // Test utility: a failed close of a socket being torn down changes nothing.
    }
  }
}
