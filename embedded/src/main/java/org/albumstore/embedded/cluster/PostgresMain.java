package org.albumstore.embedded.cluster;

import org.albumstore.embedded.cluster.ReplicatedPostgres.Replication;

/**
 * {@code java -cp albumstore-local.jar org.albumstore.embedded.cluster.PostgresMain}: a PostgreSQL
 * primary alone ({@link Replication#NONE}) of the release {@link Engines} chooses, for the scripts
 * of bench/ that compare releases on the same settings. Prints {@code port N} (database {@value
 * ReplicatedPostgres#DATABASE}, user postgres, trust) once it accepts connections, then runs until
 * its standard input ends or it gets SIGTERM, and stops it and deletes its files.
 */
public final class PostgresMain {
  private PostgresMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 0) {
      System.err.println("usage: PostgresMain");
      System.exit(2);
    }
    ReplicatedPostgres pg = ReplicatedPostgres.start(Replication.NONE);
    Runtime.getRuntime().addShutdownHook(new Thread(PostgresMain.close(pg), "postgres-stop"));
    System.out.println("port " + pg.ports().get(pg.primary()));
    RabbitClusterMain.holdUntilStdinEnds();
  }

  private static Runnable close(ReplicatedPostgres pg) {
    return () -> {
      try {
        pg.close();
      } catch (Exception e) {
        System.err.println("stopping PostgreSQL: " + e);
      }
    };
  }
}
