package org.albumstore.embedded.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on loopback for the processes a test or a local cluster starts, chosen below the
 * operating system's ephemeral range. A port the system hands out for {@code bind(0)} comes from
 * that range, which every outgoing connection draws its local port from too: between the choice and
 * the child's own bind (seconds; in UpgradeIT the previous release's build) any connection may take
 * it. A clean-clone CI run lost a server that way ({@code Address already in use}). Below the range
 * only another listener can take a port, and the window is random, so two test JVMs rarely pick the
 * same one; those that start a process on a chosen port still start again on a fresh one when it
 * was taken.
 *
 * <p>The window: the 12,000 ports below the range's start, read from {@code
 * /proc/sys/net/ipv4/ip_local_port_range} on Linux (32768 by default: 20768 to 32767), else below
 * 49152 (IANA's dynamic ports, which macOS and Windows use). RabbitMQ's command line tools bind
 * their own distribution ports ({@code RABBITMQ_CTL_DIST_PORT_MIN}..{@code MAX}, 35672 to 35682 by
 * default): a node listener chosen there would clash with the {@code rabbitmqctl} that waits for
 * it, so they are never chosen.
 */
final class LoopbackPorts {
  static final int WINDOW = 12_000;
  static final int CTL_PORTS_FROM = 35672;
  static final int CTL_PORTS_TO = 35682;
  private static final int ATTEMPTS = 50;
  private static final Path LINUX_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  private LoopbackPorts() {}

  /** A port nothing listens on now, below the ephemeral range and outside the tools' ports. */
  static int free() throws IOException {
    int to = ephemeralStart();
    int from = Math.max(1024, to - WINDOW);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(from, to);
      if ((port < CTL_PORTS_FROM || port > CTL_PORTS_TO) && bindable(port)) {
        return port;
      }
    }
    throw new IOException("no free loopback port in " + from + "-" + (to - 1));
  }

  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Where the ephemeral ports begin: the first number of the Linux file (read by line: some kernels
   * report the file's size wrong, and a read by size gets one byte), else IANA's 49152; also 49152
   * when the range leaves no room below it.
   */
  static int ephemeralStart() {
    try (BufferedReader r = Files.newBufferedReader(LINUX_RANGE)) {
      int start = Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
      return start >= 1024 + WINDOW ? start : 49152;
    } catch (IOException | RuntimeException e) {
      return 49152;
    }
  }
}
