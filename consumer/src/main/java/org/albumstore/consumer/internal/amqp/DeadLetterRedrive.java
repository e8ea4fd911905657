package org.albumstore.consumer.internal.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;

/**
 * Moves the messages of a dead-letter queue back to the write queue, for the consumers to apply
 * again: the messages a consumer of an earlier release dead-lettered because it could not read
 * their version, or those a since-fixed consumer could not apply.
 *
 * <p>Why here and not RabbitMQ's shovel: a dynamic shovel with {@code src-delete-after:
 * queue-length} does the same on a broker that has the plugin, but Amazon MQ does not let a shovel
 * deliver to a private broker, which is what deploy/aws creates.
 *
 * <p>Nothing is lost and nothing counts twice: a message is acknowledged in the dead-letter queue
 * only after the broker confirmed its copy in the write queue, so a crash in between leaves it in
 * both, and the consumer applies a message it sees twice once (its ledger keys are in the body:
 * message ID, event IDs, album IDs). For the same reason one copy per message ID is enough: a
 * second message with an ID already moved in this run (a duplicate, or an original whose
 * acknowledgement the broker lost) is acknowledged without another copy.
 *
 * <p>Lost acknowledgements: a quorum queue can drop acknowledgements sent just before their channel
 * closes (rabbitmq-server#10327: its client buffers them while the queue is busy); the originals
 * then return to the dead-letter queue although their copies were confirmed (seen in the upgrade
 * runs on a 3-node cluster, and in 2 of 10 runs on one node). So after the move a check pass, on a
 * new channel, looks again, acknowledges such originals and moves what arrived meanwhile; passes
 * repeat until one acknowledges nothing, whose channel's close then has nothing to lose.
 *
 * <p>It ends: each copy carries this run's ID ({@link #RUN_HEADER}); a message that comes round
 * (dead-lettered again while the run goes on) is left for the next run. The queue's own count is
 * not the bound: a quorum queue's count can lag or read 0 under load.
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

  /** The header that marks a copy with the run that made it. */
  static final String RUN_HEADER = "albumstore-redrive";

  /** Check passes after the move, at most; each waits {@link #CHECK_PAUSE_MILLIS} first. */
  static final int CHECK_PASSES = 10;

  /** How long a check pass waits for what a closed channel returns to the queue. */
  static final long CHECK_PAUSE_MILLIS = 1_000;

  /**
   * How long a pass that acknowledged something keeps its channel open before closing it: the
   * queue's client sends the acknowledgements it buffered once its earlier commands are applied,
   * and a close before that drops them (4,396 messages redriven at 1,000 writes/s: one close per
   * pass left 802 of them in the queue after 5 passes).
   */
  static final long SETTLE_GRACE_MILLIS = 2_000;

  /**
   * What a run did: how many messages it copied to the write queue, by the reason they had been
   * dead-lettered for, and how many it acknowledged without a copy (their ID was already moved).
   */
  public record Moved(long messages, Map<String, Long> byReason, long alreadyMoved) {}

  private DeadLetterRedrive() {}

  /**
   * Moves the dead-letter queue of {@code partition} to that partition's write exchange, the
   * messages with their properties and bodies as they were, less the dead-letter reason. The
   * topology must be declared.
   *
   * @throws IOException when the broker refuses, the channel closes, or a copy cannot be routed to
   *     the write queue; what was not confirmed stays in the dead-letter queue
   */
  public static Moved run(
      Connection connection, AmqpSettings.Partition partition, long confirmTimeoutMillis)
      throws IOException, TimeoutException, InterruptedException {
    Run run = new Run(partition, confirmTimeoutMillis);
    boolean more = pass(connection, run);
    for (int i = 0; i < CHECK_PASSES && more && run.ackedInPass > 0; i++) {
      Thread.sleep(CHECK_PAUSE_MILLIS);
      more = pass(connection, run);
    }
    return new Moved(run.moved.size(), run.byReason, run.alreadyMoved);
  }

  /** What one run carries from pass to pass. */
  private static final class Run {
    final String id = UUID.randomUUID().toString();
    final AmqpSettings.Partition partition;
    final long confirmTimeoutMillis;
    final Set<String> moved = new HashSet<>();
    final Map<String, Long> byReason = new TreeMap<>();
    long alreadyMoved;
    long ackedInPass;

    Run(AmqpSettings.Partition partition, long confirmTimeoutMillis) {
      this.partition = partition;
      this.confirmTimeoutMillis = confirmTimeoutMillis;
    }
  }

  /**
   * One pass on a channel of its own, group by group until the queue is empty or a message of this
   * run comes round; returns false when one came round (the run stops there).
   */
  private static boolean pass(Connection connection, Run run)
      throws IOException, TimeoutException, InterruptedException {
    run.ackedInPass = 0;
    try (Channel ch = connection.createChannel()) {
      ch.confirmSelect();
      Set<String> returned = ConcurrentHashMap.newKeySet();
      ch.addReturnListener(r -> returned.add(r.getReplyText()));
      Group g;
      do {
        g = moveGroup(ch, run, returned);
        run.ackedInPass += g.taken();
      } while (!g.cameRound() && g.taken() == CONFIRM_GROUP);
      if (run.ackedInPass > 0) {
        Thread.sleep(SETTLE_GRACE_MILLIS);
      }
      return !g.cameRound();
    }
  }

  private record Group(long taken, boolean cameRound) {}

  /**
   * Takes up to {@link #CONFIRM_GROUP} messages: publishes the copies of those not moved yet, waits
   * for the confirms, then acknowledges every message taken with one multiple-ack.
   */
  private static Group moveGroup(Channel ch, Run run, Set<String> returned)
      throws IOException, TimeoutException, InterruptedException {
    AmqpSettings.Partition p = run.partition;
    long lastTag = -1;
    long taken = 0;
    boolean published = false;
    List<String> ids = new ArrayList<>();
    Map<String, Long> reasons = new HashMap<>();
    for (; taken < CONFIRM_GROUP; taken++) {
      GetResponse g = ch.basicGet(p.deadLetterQueue(), false);
      if (g == null) {
        break;
      }
      if (run.id.equals(header(g.getProps(), RUN_HEADER))) {
        // Came round: left unacknowledged, so the channel's close returns it for the next run.
        return finish(ch, run, taken, lastTag, published, ids, reasons, returned, true);
      }
      lastTag = g.getEnvelope().getDeliveryTag();
      String id = g.getProps().getMessageId();
      if (id != null && (run.moved.contains(id) || ids.contains(id))) {
        run.alreadyMoved++;
        continue;
      }
      reasons.merge(reason(g.getProps()), 1L, Long::sum);
      ch.basicPublish(
          p.exchange(), Topology.ROUTING_KEY, true, copy(g.getProps(), run.id), g.getBody());
      published = true;
      ids.add(id != null ? id : "(no id) " + UUID.randomUUID());
    }
    return finish(ch, run, taken, lastTag, published, ids, reasons, returned, false);
  }

  /** Awaits the group's confirms, acknowledges what it took and records what it moved. */
  private static Group finish(
      Channel ch,
      Run run,
      long taken,
      long lastTag,
      boolean published,
      List<String> ids,
      Map<String, Long> reasons,
      Set<String> returned,
      boolean cameRound)
      throws IOException, TimeoutException, InterruptedException {
    if (published) {
      awaitConfirms(ch, run.partition, returned, run.confirmTimeoutMillis);
    }
    if (lastTag >= 0) {
      ch.basicAck(lastTag, true);
    }
    run.moved.addAll(ids);
    reasons.forEach((r, n) -> run.byReason.merge(r, n, Long::sum));
    return new Group(taken, cameRound);
  }

  private static String header(AMQP.BasicProperties props, String name) {
    Object value = props.getHeaders() == null ? null : props.getHeaders().get(name);
    return value == null ? null : value.toString();
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

  /** {@code props} less the reason and the broker's headers, marked with the run's ID. */
  static AMQP.BasicProperties copy(AMQP.BasicProperties props, String runId) {
    Map<String, Object> headers =
        props.getHeaders() == null ? new HashMap<>() : new HashMap<>(props.getHeaders());
    headers.remove(Topology.REASON_HEADER);
    headers.keySet().removeAll(BROKER_HEADERS);
    headers.put(RUN_HEADER, runId);
    return props.builder().headers(headers).build();
  }
}
