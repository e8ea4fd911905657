package org.albumstore.client;

import picocli.CommandLine;

/**
 * The client's version, from the jar's manifest ({@code dev} when run from classes). A class of its
 * own so that the command ({@code --version}) and the report ({@code summary.json}) read it without
 * depending on the entry class that runs them.
 */
final class ClientVersion implements CommandLine.IVersionProvider {
  static String version() {
    String v = ClientVersion.class.getPackage().getImplementationVersion();
    return v != null ? v : "dev";
  }

  /** {@code --version}. */
  @Override
  public String[] getVersion() {
    return new String[] {"albumstore-client " + version()};
  }
}
