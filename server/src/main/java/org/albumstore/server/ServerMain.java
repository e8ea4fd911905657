package org.albumstore.server;

import picocli.CommandLine;

/**
 * {@code java -jar albumstore-server.jar}: the command line ({@link ServerCommand}), which starts
 * an {@link AlbumStoreServer}. Apart from the server so that the server, which tests and the {@code
 * local/} module start through {@link AlbumStoreServer#start}, does not depend on its own command.
 */
public final class ServerMain {
  private ServerMain() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new ServerCommand()).execute(args));
  }
}
