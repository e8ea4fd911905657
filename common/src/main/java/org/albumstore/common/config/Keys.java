package org.albumstore.common.config;

/**
 * The names of the settings shared by more than one runnable. Each is an environment variable; the
 * command-line flags of the runnables mirror them. Defaults live in {@link Defaults}.
 */
public final class Keys {
  public static final String AMQP_URI = "ALBUMSTORE_AMQP_URI";
  public static final String AMQP_ADDRESSES = "ALBUMSTORE_AMQP_ADDRESSES";
  public static final String QUEUE = "ALBUMSTORE_QUEUE";
  public static final String QUEUE_TYPE = "ALBUMSTORE_QUEUE_TYPE";
  public static final String QUORUM_GROUP_SIZE = "ALBUMSTORE_QUORUM_GROUP_SIZE";
  public static final String JDBC_URL = "ALBUMSTORE_JDBC_URL";
  public static final String DB_USER = "ALBUMSTORE_DB_USER";
  public static final String DB_PASSWORD = "ALBUMSTORE_DB_PASSWORD";
  public static final String HTTP_PORT = "ALBUMSTORE_HTTP_PORT";

  private Keys() {}
}
