package org.albumstore.common.amqp;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.albumstore.common.config.AmqpSettings;

/**
 * The broker topology both sides declare at start-up (declaring is idempotent, so whichever starts
 * first creates it): a durable direct exchange, the durable write queue bound to it, a dead-letter
 * exchange with its queue for messages that can never be applied, and the fanout exchange on which
 * consumers announce their commits to the servers.
 *
 * <pre>
 *   server --publish(ROUTING_KEY)--> [exchange] --> [queue] --> consumer
 *                                                      | reject / poison
 *                                                      v
 *                                      [dead-letter exchange] --> [dead-letter queue]
 *
 *   consumer --after each commit--> [commits exchange, fanout] --> [one queue per server]
 * </pre>
 */
public final class Topology {
  /** The routing key of write messages. */
  public static final String ROUTING_KEY = "write";

  /** Header set on dead-lettered messages: why they could not be applied. */
  public static final String REASON_HEADER = "albumstore-dead-letter-reason";

  /** Replicas a new quorum queue gets (RabbitMQ caps it at the number of cluster nodes). */
  public static final String QUORUM_GROUP_SIZE_ARGUMENT = "x-quorum-initial-group-size";

  private Topology() {}

  public static void declare(Channel channel, AmqpSettings s) throws IOException {
    Map<String, Object> typeOnly = new HashMap<>();
    typeOnly.put("x-queue-type", s.queueType().wireName());

    channel.exchangeDeclare(s.deadLetterExchange(), BuiltinExchangeType.FANOUT, true);
    channel.queueDeclare(s.deadLetterQueue(), true, false, false, typeOnly);
    channel.queueBind(s.deadLetterQueue(), s.deadLetterExchange(), "");

    Map<String, Object> queueArgs = new HashMap<>(typeOnly);
    queueArgs.put("x-dead-letter-exchange", s.deadLetterExchange());
    if (s.queueType() == AmqpSettings.QueueType.QUORUM && s.quorumGroupSize() > 0) {
      // Only the write queue: the dead-letter queue holds the rare poison message, and changing
      // its declaration would break re-declaring it where it already exists.
      queueArgs.put(QUORUM_GROUP_SIZE_ARGUMENT, s.quorumGroupSize());
    }
    if (!isRabbitMq(channel)) {
      // Qpid Broker-J (the embedded broker) ignores x-dead-letter-exchange: without these, a
      // message
      // rejected with requeue=false goes back to the queue instead of to the dead-letter queue.
      queueArgs.put("alternateExchange", s.deadLetterExchange());
      queueArgs.put("x-qpid-maximum-delivery-count", 1);
    }
    channel.exchangeDeclare(s.exchange(), BuiltinExchangeType.DIRECT, true);
    channel.queueDeclare(s.queue(), true, false, false, queueArgs);
    channel.queueBind(s.queue(), s.exchange(), ROUTING_KEY);
    // Durable so that it outlives a broker restart like the rest; what it carries is not kept.
    channel.exchangeDeclare(s.commitsExchange(), BuiltinExchangeType.FANOUT, true);
  }

  /** True when the broker says it is RabbitMQ (the {@code product} server property). */
  public static boolean isRabbitMq(Channel channel) {
    Object product = channel.getConnection().getServerProperties().get("product");
    return product != null && product.toString().contains("RabbitMQ");
  }

  /** Deletes everything {@link #declare} made; for tests that use a queue of their own. */
  public static void delete(Channel channel, AmqpSettings s) throws IOException {
    channel.queueDelete(s.queue());
    channel.queueDelete(s.deadLetterQueue());
    channel.exchangeDelete(s.exchange());
    channel.exchangeDelete(s.deadLetterExchange());
    channel.exchangeDelete(s.commitsExchange());
  }
}
