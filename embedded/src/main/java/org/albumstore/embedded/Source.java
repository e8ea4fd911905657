package org.albumstore.embedded;

/** Where a resolved service came from, in the order they are tried. */
public enum Source {
  /** The user named it ({@code ALBUMSTORE_AMQP_URI}, {@code ALBUMSTORE_JDBC_URL}). */
  CONFIGURED,
  /** Nothing was configured and a server answered on the standard loopback port. */
  LOCAL,
  /** Started in this JVM (broker) or as its child process (PostgreSQL). */
  EMBEDDED
}
