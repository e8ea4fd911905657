package org.albumstore.common.config;

/**
 * Default values of the shared settings, as compile-time constants so that picocli annotations can
 * state them in {@code --help}. Only loopback hosts and the stock local credentials appear here;
 * anything else comes from configuration.
 */
public final class Defaults {
  public static final String AMQP_URI = "amqp://guest:guest@127.0.0.1:5672/%2F";

  /** Empty: the one host and port of the URI. */
  public static final String AMQP_ADDRESSES = "";

  public static final String QUEUE = "albumstore.writes";
  public static final String QUEUE_TYPE = "classic";

  /**
   * 0: the broker's default (all nodes of the cluster). Not sent unless set, because RabbitMQ
   * refuses to re-declare an existing queue with an argument it was not created with.
   */
  public static final int QUORUM_GROUP_SIZE = 0;

  public static final String JDBC_URL = "jdbc:postgresql://127.0.0.1:5432/albumstore";
  public static final String DB_USER = "postgres";
  public static final String DB_PASSWORD = "";
  public static final int HTTP_PORT = 8080;
  public static final String CONTEXT_PATH = "/albumstore";

  private Defaults() {}
}
