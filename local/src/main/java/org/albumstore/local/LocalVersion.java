package org.albumstore.local;

import picocli.CommandLine;

/**
 * {@code --version}: the launcher's version from the jar's manifest ({@code dev} when run from
 * classes). Apart from the entry class, so that the command does not depend on what runs it.
 */
final class LocalVersion implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = LocalVersion.class.getPackage().getImplementationVersion();
    return new String[] {"albumstore-local " + (v != null ? v : "dev")};
  }
}
