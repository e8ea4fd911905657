package org.albumstore.common.config;

import java.util.List;
import java.util.stream.Stream;

/**
 * The settings that more than one runnable reads: the broker, the queue, the database and the HTTP
 * port, each declared once ({@link Setting}). The server, the consumer, the client and the local
 * launcher derive their flags and help from these; {@link AmqpSettings} and {@link
 * DatabaseSettings} read them. Only loopback hosts and the stock local credentials appear as
 * defaults; anything else comes from configuration.
 */
public final class CommonSettings {
  public static final Setting<String> AMQP_URI =
      Setting.text("ALBUMSTORE_AMQP_URI", "amqp://guest:guest@127.0.0.1:5672/%2F")
          .withFlag("--amqp-uri", "URI")
          .withHelp("Broker URI, amqp:// or amqps:// (TLS), with credentials and vhost");

  public static final Setting<String> AMQP_ADDRESSES =
      Setting.text("ALBUMSTORE_AMQP_ADDRESSES", "", "none")
          .withFlag("--amqp-addresses", "HOST:PORT,...")
          .withHelp(
              "Broker nodes to connect to, comma-separated, in place of the URI's host and port (a"
                  + " cluster without one endpoint); credentials, vhost and TLS stay the URI's;"
                  + " none = the URI's host and port");

  public static final Setting<String> QUEUE =
      Setting.text("ALBUMSTORE_QUEUE", "albumstore.writes")
          .withFlag("--queue", "NAME")
          .withHelp("Durable queue (and exchange) of the writes");

  public static final Setting<String> QUEUE_TYPE =
      Setting.text("ALBUMSTORE_QUEUE_TYPE", "classic")
          .withFlag("--queue-type", "classic|quorum")
          .withHelp("Queue type used when declaring the queue");

  /**
   * 0: the broker's default (all nodes of the cluster). Not sent unless set, because RabbitMQ
   * refuses to re-declare an existing queue with an argument it was not created with.
   */
  public static final Setting<Integer> QUORUM_GROUP_SIZE =
      Setting.integer("ALBUMSTORE_QUORUM_GROUP_SIZE", 0, 0, 99)
          .withFlag("--quorum-group-size", "N")
          .withHelp(
              "Replicas of a new quorum queue, e.g. 3 on a 3-node cluster; 0 = the broker's"
                  + " default. An existing queue must be declared as it was created");

  /**
   * Queues of the write stream. 1 is the single queue named {@link #QUEUE}; above it, partition i
   * (from 1) is the queue {@code <queue>.<i>}, so growing P keeps the existing queue (see {@code
   * AmqpSettings.Partition}).
   */
  public static final Setting<Integer> QUEUE_PARTITIONS =
      Setting.integer("ALBUMSTORE_QUEUE_PARTITIONS", 1, 1, AmqpSettings.MAX_PARTITIONS)
          .withFlag("--queue-partitions", "P")
          .withHelp(
              "Queues the writes are spread over (partition 0 is the queue itself, i the queue"
                  + " <queue>.i); with quorum queues on a cluster their leaders go to different"
                  + " nodes. Servers publish over all P, consumers consume all P and drain"
                  + " partitions past P that still exist");

  public static final Setting<String> JDBC_URL =
      Setting.text("ALBUMSTORE_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/albumstore")
          .withFlag("--jdbc-url", "URL")
          .withHelp("PostgreSQL JDBC URL");

  public static final Setting<String> DB_USER =
      Setting.text("ALBUMSTORE_DB_USER", "postgres")
          .withFlag("--db-user", "USER")
          .withHelp("Database user");

  public static final Setting<String> DB_PASSWORD =
      Setting.text("ALBUMSTORE_DB_PASSWORD", "", "empty")
          .withFlag("--db-password", "PASSWORD")
          .withHelp("Database password")
          .asSecret();

  public static final Setting<Integer> HTTP_PORT =
      Setting.integer("ALBUMSTORE_HTTP_PORT", 8080, 0, 65535)
          .withFlag("--port", "PORT")
          .withHelp("HTTP port, 0 for any free port");

  /**
   * RabbitMQ's management API ({@code org.albumstore.common.amqp.ManagementApi}): the client reads
   * the queue's depth there, the {@code WriteBacklog} metric and the local cluster's scaler the
   * backlog.
   */
  public static final Setting<String> RMQ_API =
      Setting.text("ALBUMSTORE_RMQ_API", "http://127.0.0.1:15672")
          .withFlag("--rmq-api", "URL")
          .withHelp("RabbitMQ management API");

  public static final Setting<String> RMQ_USER =
      Setting.text("ALBUMSTORE_RMQ_USER", "guest")
          .withFlag("--rmq-user", "USER")
          .withHelp("Management API user");

  public static final Setting<String> RMQ_PASSWORD =
      Setting.text("ALBUMSTORE_RMQ_PASSWORD", "guest")
          .withFlag("--rmq-password", "PASSWORD")
          .withHelp("Management API password")
          .asSecret();

  /** The broker settings ({@code AmqpSettings}), in the order of --help. */
  public static final List<Setting<?>> BROKER =
      List.of(AMQP_URI, AMQP_ADDRESSES, QUEUE, QUEUE_PARTITIONS, QUEUE_TYPE, QUORUM_GROUP_SIZE);

  /** The database settings ({@code DatabaseSettings}), in the order of --help. */
  public static final List<Setting<?>> DATABASE = List.of(JDBC_URL, DB_USER, DB_PASSWORD);

  /** The broker and database settings of the server and the consumer, in the order of --help. */
  public static final List<Setting<?>> SERVICE =
      Stream.concat(BROKER.stream(), DATABASE.stream()).toList();

  /** Not a setting: where the API lives on the server (the spec's base path). */
  public static final String CONTEXT_PATH = "/albumstore";

  private CommonSettings() {}
}
