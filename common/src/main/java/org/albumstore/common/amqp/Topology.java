package org.albumstore.common.amqp;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.config.AmqpSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker topology both sides declare at start-up (declaring is idempotent, so whichever starts
 * first creates it): for each partition of the write stream ({@link AmqpSettings.Partition}) a
 * durable direct exchange, the durable write queue bound to it, a dead-letter exchange with its
 * queue for messages that can never be applied; and the fanout exchange on which consumers announce
 * their commits to the servers. A server declares all P partitions before it publishes, so a queue
 * added by a larger P exists before anything is routed to it.
 *
 * <pre>
 *   server --publish(ROUTING_KEY)--> [exchange i] --> [queue i] --> consumer   (each partition i)
 *                                                      | reject / poison
 *                                                      v
 *                                      [dead-letter exchange] --> [dead-letter queue]
 *
 *   consumer --after each commit--> [commits exchange, fanout] --> [one queue per server]
 * </pre>
 */
public final class Topology {
  private static final Logger log = LoggerFactory.getLogger(Topology.class);

  /** The routing key of write messages. */
  public static final String ROUTING_KEY = "write";

  /** Header set on dead-lettered messages: why they could not be applied. */
  public static final String REASON_HEADER = "albumstore-dead-letter-reason";

  /** Replicas a new quorum queue gets (RabbitMQ caps it at the number of cluster nodes). */
  public static final String QUORUM_GROUP_SIZE_ARGUMENT = "x-quorum-initial-group-size";

  private Topology() {}

  /**
   * Where RabbitMQ places a new quorum queue's leader. {@code balanced}: on the node with the
   * fewest leaders, so that the P partitions of a stream lead on P different nodes (RabbitMQ 3.10
   * and later, Amazon MQ's 3.13 and 4 included). Only partitions from 1 get it: RabbitMQ refuses to
   * re-declare a queue with an argument it was not created with, and partition 0 is the queue
   * deployments made before partitions existed.
   */
  public static final String LEADER_LOCATOR_ARGUMENT = "x-queue-leader-locator";

  /**
   * How many times a quorum write queue hands a message out again after it came back without an ack
   * (a consumer that died or closed its channel while holding it, or a nack with requeue); the next
   * return dead-letters it, with reason {@code delivery_limit} (21 returns in all, on RabbitMQ 3.10
   * and 4.0 alike: DeliveryLimitIT). RabbitMQ 4.0's default, declared so that 3.x (unlimited by
   * default) does the same: a message that kills every consumer that takes it stops after this many
   * deaths, instead of forever, and waits in the dead-letter queue (counted, alerted on, redriven;
   * consumer/README.md). An operator may lower it with a {@code delivery-limit} policy (the lower
   * value wins), never raise it.
   */
  public static final int DELIVERY_LIMIT = 20;

  /**
   * The arguments that make a quorum queue dead-letter at least once: the message leaves the write
   * queue only when the dead-letter queue has confirmed it, so a node lost mid-way drops nothing
   * (the default, at most once, drops it). RabbitMQ requires {@code reject-publish} overflow for
   * it; the write queue has no length limit, so nothing is ever rejected for length.
   */
  static final Map<String, Object> QUORUM_WRITE_ARGUMENTS =
      Map.of(
          "x-delivery-limit", DELIVERY_LIMIT,
          "x-dead-letter-strategy", "at-least-once",
          "x-overflow", "reject-publish");

  public static void declare(Channel channel, AmqpSettings s) throws IOException {
    Map<String, Object> typeOnly = Map.of("x-queue-type", s.queueType().wireName());
    // Every write queue before any dead-letter queue: a balanced leader goes to the node with the
    // fewest leaders, and the dead-letter queues' leaders would count.
    for (AmqpSettings.Partition p : s.partitionList()) {
      channel.exchangeDeclare(p.deadLetterExchange(), BuiltinExchangeType.FANOUT, true);
      declareWriteQueue(channel, s, p, typeOnly);
    }
    for (AmqpSettings.Partition p : s.partitionList()) {
      channel.queueDeclare(p.deadLetterQueue(), true, false, false, typeOnly);
      channel.queueBind(p.deadLetterQueue(), p.deadLetterExchange(), "");
    }
    // Durable so that it outlives a broker restart like the rest; what it carries is not kept.
    channel.exchangeDeclare(s.commitsExchange(), BuiltinExchangeType.FANOUT, true);
  }

  private static void declareWriteQueue(
      Channel channel, AmqpSettings s, AmqpSettings.Partition p, Map<String, Object> typeOnly)
      throws IOException {
    Map<String, Object> queueArgs = new HashMap<>(typeOnly);
    queueArgs.put("x-dead-letter-exchange", p.deadLetterExchange());
    boolean quorum = s.queueType() == AmqpSettings.QueueType.QUORUM;
    if (quorum && s.quorumGroupSize() > 0) {
      // Only the write queue: the dead-letter queue holds the rare poison message, and changing
      // its declaration would break re-declaring it where it already exists.
      queueArgs.put(QUORUM_GROUP_SIZE_ARGUMENT, s.quorumGroupSize());
    }
    if (quorum && p.index() > 0) {
      queueArgs.put(LEADER_LOCATOR_ARGUMENT, "balanced");
    }
    if (quorum && isRabbitMq(channel)) {
      queueArgs.putAll(QUORUM_WRITE_ARGUMENTS);
    }
    if (!isRabbitMq(channel)) {
      // Qpid Broker-J (the embedded broker) ignores x-dead-letter-exchange: without these, a
      // message rejected with requeue=false goes back to the queue instead of to the dead-letter
      // queue.
      queueArgs.put("alternateExchange", p.deadLetterExchange());
      queueArgs.put("x-qpid-maximum-delivery-count", 1);
    }
    channel.exchangeDeclare(p.exchange(), BuiltinExchangeType.DIRECT, true);
    declareOrKeep(channel.getConnection(), p.queue(), queueArgs);
    channel.queueBind(p.queue(), p.exchange(), ROUTING_KEY);
  }

  /**
   * Declares {@code queue} with {@code args} on a channel of its own. A queue that an earlier
   * release declared with other arguments (RabbitMQ refuses to change them: 406 "inequivalent arg")
   * is kept as it is, with a warning naming the policy that gives it what it lacks
   * (deploy/RUNBOOK.md); any other refusal is an error.
   */
  private static void declareOrKeep(Connection connection, String queue, Map<String, Object> args)
      throws IOException {
    try {
      Channel ch = connection.createChannel();
      try {
        ch.queueDeclare(queue, true, false, false, args);
        ch.close();
        return;
      } catch (IOException e) {
        if (!(e.getCause() instanceof ShutdownSignalException s)
            || s.isHardError()
            || !String.valueOf(s.getReason()).contains("inequivalent arg")) {
          throw e;
        }
        log.warn(
            "queue {} exists with other arguments than this release declares ({}); kept as it is."
                + " Give it a policy with delivery-limit {}, dead-letter-strategy at-least-once"
                + " and overflow reject-publish (deploy/RUNBOOK.md)",
            queue,
            s.getReason(),
            DELIVERY_LIMIT);
      }
      try (Channel passive = connection.createChannel()) {
        passive.queueDeclarePassive(queue);
      }
    } catch (TimeoutException e) {
      throw new IOException("closing a channel that declared " + queue + " timed out", e);
    }
  }

  /**
   * The partitions there are to consume, in order, with their ready messages: 0 to P - 1 (-1 for
   * one that does not exist), then those past P that still exist (left by a larger P: drained,
   * never stranded), found by a passive declare each until the first that does not exist.
   */
  public static Map<AmqpSettings.Partition, Long> depths(Connection connection, AmqpSettings s)
      throws IOException, TimeoutException {
    Map<AmqpSettings.Partition, Long> depths = new LinkedHashMap<>();
    for (AmqpSettings.Partition p : s.partitionList()) {
      depths.put(p, messages(connection, p.queue()));
    }
    for (int i = s.partitions(); i < AmqpSettings.MAX_PARTITIONS; i++) {
      AmqpSettings.Partition p = s.partition(i);
      long n = messages(connection, p.queue());
      if (n < 0) {
        break;
      }
      depths.put(p, n);
    }
    return depths;
  }

  /** The ready messages of {@code queue}, or -1 when it does not exist. */
  public static long messages(Connection connection, String queue)
      throws IOException, TimeoutException {
    Channel ch = connection.createChannel();
    try {
      return ch.queueDeclarePassive(queue).getMessageCount();
    } catch (IOException e) {
      if (e.getCause() instanceof ShutdownSignalException s && !s.isHardError()) {
        return -1; // 404 NOT_FOUND closes the channel, not the connection
      }
      throw e;
    } finally {
      if (ch.isOpen()) {
        ch.close();
      }
    }
  }

  /** True when the broker says it is RabbitMQ (the {@code product} server property). */
  public static boolean isRabbitMq(Channel channel) {
    Object product = channel.getConnection().getServerProperties().get("product");
    return product != null && product.toString().contains("RabbitMQ");
  }

  /** Deletes everything {@link #declare} made; for tests that use a queue of their own. */
  public static void delete(Channel channel, AmqpSettings s) throws IOException {
    for (AmqpSettings.Partition p : s.partitionList()) {
      channel.queueDelete(p.queue());
      channel.queueDelete(p.deadLetterQueue());
      channel.exchangeDelete(p.exchange());
      channel.exchangeDelete(p.deadLetterExchange());
    }
    channel.exchangeDelete(s.commitsExchange());
  }
}
