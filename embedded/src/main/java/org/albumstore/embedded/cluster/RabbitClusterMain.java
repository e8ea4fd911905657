package org.albumstore.embedded.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * {@code java -cp albumstore-local.jar org.albumstore.embedded.cluster.RabbitClusterMain NODES
 * DIR}: a {@link RabbitCluster} of NODES nodes with its files under DIR for the scripts of bench/,
 * so that they start nodes the one way the tests and the cluster stack do. Prints {@code addresses
 * 127.0.0.1:p1,...} once the cluster is formed, then runs until its standard input ends or it gets
 * SIGTERM, and stops the nodes.
 */
public final class RabbitClusterMain {
  private RabbitClusterMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 2) {
      System.err.println("usage: RabbitClusterMain NODES DIR");
      System.exit(2);
    }
    int nodes = Integer.parseInt(args[0]);
    Path dir = Path.of(args[1]);
    String prefix = "albumstore-bench-" + ProcessHandle.current().pid();
    RabbitCluster cluster = RabbitCluster.start(prefix, nodes, dir);
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "rabbit-cluster-stop"));
    System.out.println("addresses " + cluster.addresses());
    System.out.flush();
    InputStream in = System.in;
    while (in.read() >= 0) {
      // runs until stdin ends (the script's end) or SIGTERM (the shutdown hook stops the nodes)
    }
    System.exit(0);
  }
}
