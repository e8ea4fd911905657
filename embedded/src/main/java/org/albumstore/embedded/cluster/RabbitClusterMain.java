package org.albumstore.embedded.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * {@code java -cp albumstore-local.jar org.albumstore.embedded.cluster.RabbitClusterMain NODES DIR
 * [management]}: a {@link RabbitCluster} of NODES nodes of the release {@link Engines} chooses,
 * with its files under DIR, for the scripts of bench/, so that they start nodes the one way the
 * tests and the cluster stack do. With {@code management}, first prints {@code management
 * http://127.0.0.1:PORT} (the first node's management API). Prints {@code addresses
 * 127.0.0.1:p1,...} once the cluster is formed, then runs until its standard input ends or it gets
 * SIGTERM, and stops the nodes.
 */
public final class RabbitClusterMain {
  private RabbitClusterMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 2 || args.length > 3 || (args.length == 3 && !"management".equals(args[2]))) {
      System.err.println("usage: RabbitClusterMain NODES DIR [management]");
      System.exit(2);
    }
    int nodes = Integer.parseInt(args[0]);
    Path dir = Path.of(args[1]);
    String prefix = "albumstore-bench-" + ProcessHandle.current().pid();
    RabbitCluster cluster = RabbitCluster.start(prefix, nodes, dir, args.length == 3);
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "rabbit-cluster-stop"));
    cluster.managementApi().ifPresent(url -> System.out.println("management " + url));
    System.out.println("addresses " + cluster.addresses());
    holdUntilStdinEnds();
  }

  /**
   * Returns never: exits once standard input ends (the script's end); SIGTERM runs the shutdown
   * hooks, which stop what the main started.
   */
  static void holdUntilStdinEnds() throws IOException {
    System.out.flush();
    InputStream in = System.in;
    while (in.read() >= 0) {
      // nothing: only the end of the input matters
    }
    System.exit(0);
  }
}
