package org.albumstore.common.config;

import com.rabbitmq.client.Address;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How to reach the broker and which queue carries the writes.
 *
 * <p>The exchange, dead-letter exchange and dead-letter queue are derived from the queue name so
 * that one setting moves a whole topology (tests use a fresh queue name each and never see each
 * other's messages).
 *
 * <p>A cluster without one endpoint (a self-managed RabbitMQ cluster; Amazon MQ gives one) is
 * reached through {@code addresses}: the URI still carries the credentials, the virtual host and
 * TLS, the list says which {@code host:port} to try. amqp-client shuffles the list for each
 * connection and recovery, so the connections of many instances spread over the nodes and a lost
 * node is replaced by the next one.
 *
 * @param uri {@code amqp://} or {@code amqps://} URI, credentials included
 * @param addresses comma-separated {@code host:port} of the broker nodes; empty: the URI's host
 * @param queue the durable queue the server publishes to and the consumer reads
 * @param queueType {@code classic} or {@code quorum}
 * @param quorumGroupSize replicas of a new quorum queue ({@code x-quorum-initial-group-size}; the
 *     broker caps it at the cluster's size); 0: the broker's default
 * @param partitions queues of the write stream, 1 to {@value #MAX_PARTITIONS} ({@link Partition})
 */
public record AmqpSettings(
    String uri,
    String addresses,
    String queue,
    QueueType queueType,
    int quorumGroupSize,
    int partitions) {

  /** Most queues one write stream is spread over. */
  public static final int MAX_PARTITIONS = 32;

  /**
   * One queue of the write stream and what belongs to it alone: its direct exchange (the server
   * publishes each bundle to one partition's exchange with the routing key {@code write}), its
   * dead-letter exchange and its dead-letter queue. Partition 0 is named after the stream ({@code
   * queue}, as before partitions existed); partition i is {@code <queue>.<i>}. So P = 1 is the
   * topology of one queue, growing P adds queues beside it, and a dead letter goes back to the
   * partition it came from.
   *
   * @param index 0 to P - 1 (or beyond, for a partition left over from a larger P)
   * @param queue the partition's durable queue
   */
  public record Partition(int index, String queue) {
    /** The direct exchange that routes to this partition's queue. */
    public String exchange() {
      return queue;
    }

    /** Where this partition's messages that can never be applied are routed. */
    public String deadLetterExchange() {
      return queue + ".dlx";
    }

    public String deadLetterQueue() {
      return queue + ".dlq";
    }
  }

  public enum QueueType {
    CLASSIC,
    QUORUM;

    public static QueueType parse(String s) {
      try {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            CommonSettings.QUEUE_TYPE.variable() + " must be classic or quorum, was '" + s + "'");
      }
    }

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Settings that reach the broker at the URI's own host and port, with one queue. */
  public AmqpSettings(String uri, String queue, QueueType queueType) {
    this(
        uri,
        CommonSettings.AMQP_ADDRESSES.defaultValue(),
        queue,
        queueType,
        CommonSettings.QUORUM_GROUP_SIZE.defaultValue());
  }

  /** Settings of a stream of one queue. */
  public AmqpSettings(
      String uri, String addresses, String queue, QueueType queueType, int quorumGroupSize) {
    this(
        uri,
        addresses,
        queue,
        queueType,
        quorumGroupSize,
        CommonSettings.QUEUE_PARTITIONS.defaultValue());
  }

  public AmqpSettings {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(addresses, "addresses");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(queueType, "queueType");
    String scheme = URI.create(uri).getScheme();
    if (!"amqp".equals(scheme) && !"amqps".equals(scheme)) {
      throw new IllegalArgumentException(
          CommonSettings.AMQP_URI.variable()
              + " must start with amqp:// or amqps://, was '"
              + redact(uri)
              + "'");
    }
    if (queue.isBlank() || queue.length() > 200) {
      throw new IllegalArgumentException(
          CommonSettings.QUEUE.variable() + " must be 1 to 200 characters");
    }
    if (quorumGroupSize < 0 || quorumGroupSize > 99) {
      throw new IllegalArgumentException(
          CommonSettings.QUORUM_GROUP_SIZE.variable() + " must be 0 to 99");
    }
    if (partitions < 1 || partitions > MAX_PARTITIONS) {
      throw new IllegalArgumentException(
          CommonSettings.QUEUE_PARTITIONS.variable()
              + " must be between 1 and "
              + MAX_PARTITIONS
              + ", was "
              + partitions);
    }
    addresses = addresses.strip();
    parseAddresses(addresses); // fails early, naming the setting
  }

  public static AmqpSettings from(Env env) {
    return new AmqpSettings(
        CommonSettings.AMQP_URI.read(env),
        CommonSettings.AMQP_ADDRESSES.read(env),
        CommonSettings.QUEUE.read(env),
        QueueType.parse(CommonSettings.QUEUE_TYPE.read(env)),
        CommonSettings.QUORUM_GROUP_SIZE.read(env),
        CommonSettings.QUEUE_PARTITIONS.read(env));
  }

  /** These settings as {@code ALBUMSTORE_*} values, for a process or a context to read back. */
  public Map<String, String> asVariables() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(CommonSettings.AMQP_URI.variable(), uri);
    m.put(CommonSettings.AMQP_ADDRESSES.variable(), addresses);
    m.put(CommonSettings.QUEUE.variable(), queue);
    m.put(CommonSettings.QUEUE_PARTITIONS.variable(), Integer.toString(partitions));
    m.put(CommonSettings.QUEUE_TYPE.variable(), queueType.wireName());
    m.put(CommonSettings.QUORUM_GROUP_SIZE.variable(), Integer.toString(quorumGroupSize));
    return m;
  }

  public AmqpSettings withQueue(String otherQueue) {
    return new AmqpSettings(uri, addresses, otherQueue, queueType, quorumGroupSize, partitions);
  }

  /** The same stream spread over {@code otherPartitions} queues. */
  public AmqpSettings withPartitions(int otherPartitions) {
    return new AmqpSettings(uri, addresses, queue, queueType, quorumGroupSize, otherPartitions);
  }

  /** The same broker (URI, credentials, TLS) reached at {@code otherAddresses} instead. */
  public AmqpSettings withAddresses(String otherAddresses) {
    return new AmqpSettings(uri, otherAddresses, queue, queueType, quorumGroupSize, partitions);
  }

  /**
   * Where to connect: the {@code addresses} list, else the URI's host and port (the scheme's
   * default port when the URI names none).
   */
  public List<Address> addressList() {
    if (!addresses.isEmpty()) {
      return parseAddresses(addresses);
    }
    URI u = URI.create(uri);
    int port = u.getPort() > 0 ? u.getPort() : (tls() ? 5671 : 5672);
    return List.of(new Address(u.getHost() == null ? "localhost" : u.getHost(), port));
  }

  private static List<Address> parseAddresses(String list) {
    if (list.isEmpty()) {
      return List.of();
    }
    try {
      List<Address> parsed = List.of(Address.parseAddresses(list));
      for (Address a : parsed) {
        if (a.getHost().isBlank() || a.getPort() == 0 || a.getPort() > 65535) {
          throw new IllegalArgumentException("'" + a + "'");
        }
      }
      return parsed;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          CommonSettings.AMQP_ADDRESSES.variable()
              + " must be comma-separated host:port entries, was '"
              + list
              + "' ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  /** Partition {@code index} of the stream; past P for a partition left over from a larger P. */
  public Partition partition(int index) {
    if (index < 0 || index >= MAX_PARTITIONS) {
      throw new IllegalArgumentException(
          "partition " + index + " is outside 0 to " + MAX_PARTITIONS);
    }
    return new Partition(index, partitionQueue(queue, index));
  }

  /** The queue of partition {@code index} of the stream named {@code queue}. */
  public static String partitionQueue(String queue, int index) {
    return index == 0 ? queue : queue + "." + index;
  }

  /** Partitions 0 to P - 1: the queues servers publish to. */
  public List<Partition> partitionList() {
    List<Partition> list = new ArrayList<>(partitions);
    for (int i = 0; i < partitions; i++) {
      list.add(partition(i));
    }
    return list;
  }

  /** Partition 0's direct exchange: with P = 1, the one the server publishes to. */
  public String exchange() {
    return partition(0).exchange();
  }

  /** Partition 0's dead-letter exchange. */
  public String deadLetterExchange() {
    return partition(0).deadLetterExchange();
  }

  /** Partition 0's dead-letter queue. */
  public String deadLetterQueue() {
    return partition(0).deadLetterQueue();
  }

  /**
   * The fanout exchange on which consumers announce what they committed ({@code
   * event.CommittedWrites}); each server binds a queue of its own to it.
   */
  public String commitsExchange() {
    return queue + ".commits";
  }

  public boolean tls() {
    return uri.startsWith("amqps:");
  }

  /** The URI with its password replaced, for logs and error messages. */
  public String redactedUri() {
    return redact(uri);
  }

  static String redact(String uri) {
    return uri.replaceFirst("://([^:/@]*):[^@/]*@", "://$1:***@");
  }

  @Override
  public String toString() {
    return "AmqpSettings[uri="
        + redactedUri()
        + (addresses.isEmpty() ? "" : ", addresses=" + addresses)
        + ", queue="
        + queue
        + ", type="
        + queueType
        + (quorumGroupSize > 0 ? ", quorumGroupSize=" + quorumGroupSize : "")
        + (partitions > 1 ? ", partitions=" + partitions : "")
        + "]";
  }
}
