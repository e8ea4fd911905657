package org.albumstore.faults.upgrade;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.util.Map;
import java.util.TreeMap;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;

/**
 * The messages left in a queue's dead-letter queues ({@code <queue>.dlq}, one per partition) at the
 * end of a run, read through the broker: how many, and why each was dead-lettered, so that a
 * message a redrive should have moved can be told from one dead-lettered later (by a consumer or by
 * the broker).
 */
final class DeadLetters {
  private DeadLetters() {}

  /** What the dead-letter queues hold: how many in all, how many of each reason. */
  record Left(long messages, Map<String, Long> byReason) {
    @Override
    public String toString() {
      return messages + (byReason.isEmpty() ? "" : " " + byReason);
    }
  }

  /**
   * Counts every partition's dead-letter queue and reads the reasons of up to {@code max} messages,
   * without taking any: they are fetched unacknowledged and go back when the channel closes. -1
   * messages when the broker did not answer.
   */
  static Left left(AmqpSettings amqp, int max) {
    Map<String, Long> reasons = new TreeMap<>();
    long total = 0;
    try (Connection c = AmqpConnections.open(amqp, "faults-dead-letters")) {
      for (AmqpSettings.Partition p : amqp.partitionList()) {
        total += Math.max(0, Topology.messages(c, p.deadLetterQueue()));
        try (Channel ch = c.createChannel()) {
          GetResponse g;
          for (int i = 0; i < max && (g = ch.basicGet(p.deadLetterQueue(), false)) != null; i++) {
            reasons.merge(reason(g.getProps().getHeaders()), 1L, Long::sum);
          }
        }
      }
      return new Left(total, reasons);
    } catch (Exception e) {
      return new Left(-1, Map.of());
    }
  }

  /** The consumer's reason header, else the broker's first reason. */
  private static String reason(Map<String, Object> headers) {
    if (headers == null) {
      return "(no headers)";
    }
    Object r = headers.get(Topology.REASON_HEADER);
    if (r != null) {
      return r.toString();
    }
    Object broker = headers.get("x-first-death-reason");
    return broker == null ? "(no reason)" : "broker: " + broker;
  }
}
