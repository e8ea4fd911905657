package org.albumstore.consumer.internal.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;

/**
 * Moves the messages that are in the dead-letter queue when it starts back to the write queue, for
 * the consumers to apply again: the messages a consumer of an earlier release dead-lettered because
 * it could not read their version, or those a since-fixed consumer could not apply.
 *
 * <p>Why here and not RabbitMQ's shovel: a dynamic shovel with {@code src-delete-after:
 * queue-length} does the same on a broker that has the plugin, but Amazon MQ does not let a shovel
 * deliver to a private broker, which is what deploy/aws creates.
 *
 * <p>Nothing is lost and nothing counts twice: a message is acknowledged in the dead-letter queue
 * only after the broker confirmed its copy in the write queue, so a crash in between leaves it in
 * both, and the consumer applies a message it sees twice once (its ledger keys are in the body:
 * message ID, event IDs, album IDs). Only the messages present at the start are moved, so one that
 * is dead-lettered again while this runs waits for the next run instead of going round.
 *
 * <p>A copy starts afresh: the headers the broker wrote ({@code x-death}, {@code x-first-death-*},
 * {@code x-last-death-*}, {@code x-delivery-count}) are left out with the reason. A quorum queue
 * that dead-lettered a message past its delivery limit ({@link Topology#DELIVERY_LIMIT}) must not
 * meet the same count again on the copy, and RabbitMQ 4 no longer reads a published {@code x-death}
 * anyway. The reason of such a message is the broker's ({@code delivery_limit}), since no consumer
 * wrote one.
 */
public final class DeadLetterRedrive {
  /** Messages published before their confirms are awaited and their originals acknowledged. */
  static final int CONFIRM_GROUP = 500;

  /** What a run moved: how many messages, by the reason they had been dead-lettered for. */
  public record Moved(long messages, Map<String, Long> byReason) {}

  private DeadLetterRedrive() {}

  /**
   * Moves the dead-letter queue of {@code partition}, as many messages as it holds now, to that
   * partition's write exchange, with their properties and bodies as they were, less the dead-letter
   * reason. The topology must be declared.
   *
   * @throws IOException when the broker refuses, the channel closes, or a copy cannot be routed to
   *     the write queue; what was not confirmed stays in the dead-letter queue
   */
  public static Moved run(
      Connection connection, AmqpSettings.Partition partition, long confirmTimeoutMillis)
      throws IOException, TimeoutException, InterruptedException {
    Map<String, Long> byReason = new TreeMap<>();
    long moved = 0;
    try (Channel ch = connection.createChannel()) {
      ch.confirmSelect();
      Set<String> returned = ConcurrentHashMap.newKeySet();
      ch.addReturnListener(r -> returned.add(r.getReplyText()));
      long present = ch.queueDeclarePassive(partition.deadLetterQueue()).getMessageCount();
      while (moved < present) {
        long group = Math.min(CONFIRM_GROUP, present - moved);
        long taken = moveGroup(ch, partition, group, returned, confirmTimeoutMillis, byReason);
        if (taken == 0) {
          break;
        }
        moved += taken;
      }
    }
    return new Moved(moved, byReason);
  }

  /**
   * Moves up to {@code group} messages: publishes their copies, waits for the confirms, then
   * acknowledges the originals with one multiple-ack and adds their reasons to {@code byReason}.
   *
   * @return how many were moved; 0 when the dead-letter queue was empty
   */
  private static long moveGroup(
      Channel ch,
      AmqpSettings.Partition amqp,
      long group,
      Set<String> returned,
      long confirmTimeoutMillis,
      Map<String, Long> byReason)
      throws IOException, TimeoutException, InterruptedException {
    long lastTag = -1;
    long taken = 0;
    Map<String, Long> groupReasons = new HashMap<>();
    for (; taken < group; taken++) {
      GetResponse g = ch.basicGet(amqp.deadLetterQueue(), false);
      if (g == null) {
        break; // someone else took them meanwhile
      }
      groupReasons.merge(reason(g.getProps()), 1L, Long::sum);
      ch.basicPublish(
          amqp.exchange(), Topology.ROUTING_KEY, true, withoutReason(g.getProps()), g.getBody());
      lastTag = g.getEnvelope().getDeliveryTag();
    }
    if (taken == 0) {
      return 0;
    }
    awaitConfirms(ch, amqp, returned, confirmTimeoutMillis);
    ch.basicAck(lastTag, true);
    groupReasons.forEach((r, n) -> byReason.merge(r, n, Long::sum));
    return taken;
  }

  /**
   * Waits for the confirms of the copies published so far.
   *
   * @throws IOException when a copy came back unroutable; the originals stay unacknowledged
   */
  private static void awaitConfirms(
      Channel ch, AmqpSettings.Partition amqp, Set<String> returned, long confirmTimeoutMillis)
      throws IOException, TimeoutException, InterruptedException {
    // The broker sends a basic.return before its ack, and both arrive in order on the
    // connection's thread: once the confirms are in, every return of this group is too.
    ch.waitForConfirmsOrDie(confirmTimeoutMillis);
    if (!returned.isEmpty()) {
      throw new IOException(
          "the write exchange "
              + amqp.exchange()
              + " did not route a copy to a queue ("
              + returned.iterator().next()
              + "); the originals stay in "
              + amqp.deadLetterQueue());
    }
  }

  /** The broker's headers of a dead-lettered or redelivered message. */
  private static final Set<String> BROKER_HEADERS =
      Set.of(
          "x-death",
          "x-first-death-reason",
          "x-first-death-queue",
          "x-first-death-exchange",
          "x-last-death-reason",
          "x-last-death-queue",
          "x-last-death-exchange",
          "x-delivery-count");

  /**
   * Why the message was dead-lettered: the consumer's reason header, else the broker's first reason
   * (e.g. {@code delivery_limit}), else a note that it has neither.
   */
  static String reason(AMQP.BasicProperties props) {
    Map<String, Object> headers = props.getHeaders() == null ? Map.of() : props.getHeaders();
    Object r = headers.get(Topology.REASON_HEADER);
    if (r != null) {
      return r.toString();
    }
    Object broker = headers.get("x-first-death-reason");
    return broker == null ? "(no reason header)" : "broker: " + broker;
  }

  /** {@code props} less the reason and the broker's headers. */
  static AMQP.BasicProperties withoutReason(AMQP.BasicProperties props) {
    if (props.getHeaders() == null) {
      return props;
    }
    Map<String, Object> headers = new HashMap<>(props.getHeaders());
    headers.remove(Topology.REASON_HEADER);
    headers.keySet().removeAll(BROKER_HEADERS);
    return props.builder().headers(headers).build();
  }
}
