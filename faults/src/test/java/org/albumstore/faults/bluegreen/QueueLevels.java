package org.albumstore.faults.bluegreen;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.albumstore.embedded.cluster.RabbitNode;

/**
 * What a broker holds of a test's write stream, exactly: over all partitions, the ready messages,
 * the messages delivered to a consumer and not yet acknowledged, and the dead letters (both kinds).
 * Whether a broker may be shut down rests on these figures, so each is asked of its quorum queue's
 * leader with a consistent query ({@code ra:consistent_query}: answered after a round with a
 * majority, so it reflects every command committed before it), through {@code rabbitmqctl eval} on
 * the first node that answers.
 *
 * <p>Why not the usual figures: {@code rabbitmqctl list_queues} reads a quorum queue's counts from
 * metrics its leader refreshes on a tick, every 5 s by default (seen here: green with 6
 * unacknowledged messages after its consumers had exited); and a passive declare asks the leader
 * with a 250 ms timeout and answers 0 messages on a timeout ({@code rabbit_quorum_queue:stat/2} of
 * 3.10 and 4.0 alike, read in their code), so on a loaded machine it can call a full queue empty.
 * Both serve for a backlog's curve, not for "nothing is left".
 */
public record QueueLevels(long ready, long unacknowledged, long deadLetters) {

  /** Nothing left: the broker may be shut down without losing an acknowledged write. */
  public boolean empty() {
    return ready == 0 && unacknowledged == 0 && deadLetters == 0;
  }

  /**
   * Prints {@code NAME READY CHECKED_OUT} per queue ({@code ?} for a figure the leader did not
   * give, {@code absent} for a queue that does not exist); {@code %s} is the list of names.
   */
  private static final String QUERY =
      "C = fun(A, F) -> case ra:consistent_query(amqqueue:get_pid(A), F, 10000) of"
          + " {ok, V, _} when is_integer(V) -> integer_to_list(V); _ -> \"?\" end end,"
          + " lists:foreach(fun(N) -> case rabbit_amqqueue:lookup(rabbit_misc:r(<<\"/\">>, queue,"
          + " N)) of {ok, A} -> io:format(\"~s ~s ~s~n\", [N, C(A, fun"
          + " rabbit_fifo:query_messages_ready/1), C(A, fun"
          + " rabbit_fifo:query_messages_checked_out/1)]); {error, not_found} -> io:format(\"~s"
          + " absent~n\", [N]); _ -> io:format(\"~s ?~n\", [N]) end end, [%s]).";

  /** The exact levels of {@code amqp}'s partitions on {@code nodes}. */
  public static QueueLevels of(RabbitCluster nodes, AmqpSettings amqp)
      throws IOException, InterruptedException {
    List<String> queues = new ArrayList<>();
    List<String> deadLetterQueues = new ArrayList<>();
    for (AmqpSettings.Partition p : amqp.partitionList()) {
      queues.add(p.queue());
      deadLetterQueues.add(p.deadLetterQueue());
    }
    List<String> all = new ArrayList<>(queues);
    all.addAll(deadLetterQueues);
    String names = all.stream().map(q -> "<<\"" + q + "\">>").collect(Collectors.joining(", "));
    IOException last = null;
    for (RabbitNode n : nodes.nodes()) {
      try {
        return parse(n.ctl("eval", String.format(QUERY, names)), queues, deadLetterQueues);
      } catch (IOException e) {
        last = e;
      }
    }
    throw last != null ? last : new IOException("no node");
  }

  /** The figures of {@link #QUERY}'s output; an absent queue holds nothing. */
  static QueueLevels parse(String output, List<String> queues, List<String> deadLetterQueues)
      throws IOException {
    long ready = 0;
    long unacked = 0;
    long dead = 0;
    int seen = 0;
    for (String line : output.split("\\R")) {
      String[] f = line.trim().split("\\s+");
      boolean ours = queues.contains(f[0]) || deadLetterQueues.contains(f[0]);
      if (!ours) {
        continue;
      }
      seen++;
      if (f.length == 2 && f[1].equals("absent")) {
        continue;
      }
      if (f.length != 3 || !f[1].matches("\\d+") || !f[2].matches("\\d+")) {
        throw new IOException("no exact figures for " + f[0] + ": " + output);
      }
      long r = Long.parseLong(f[1]);
      long u = Long.parseLong(f[2]);
      if (queues.contains(f[0])) {
        ready += r;
        unacked += u;
      } else {
        dead += r + u;
      }
    }
    if (seen != queues.size() + deadLetterQueues.size()) {
      throw new IOException("not every queue answered: " + output);
    }
    return new QueueLevels(ready, unacked, dead);
  }

  /**
   * Polls until the write queues hold nothing, ready or unacknowledged; returns those levels, dead
   * letters included. Once is enough when nothing publishes to the broker any more: its stream can
   * then only shrink. Gives up with the levels after {@code limit}.
   */
  public static QueueLevels awaitDrained(RabbitCluster nodes, AmqpSettings amqp, Duration limit)
      throws IOException, InterruptedException {
    return await(nodes, amqp, limit, l -> l.ready() == 0 && l.unacknowledged() == 0, "drained");
  }

  /**
   * Polls until no message is held by a consumer: once the consumers have exited, what they held
   * unacknowledged is back in the queue when the leader has processed their channels' end.
   */
  public static QueueLevels awaitSettled(RabbitCluster nodes, AmqpSettings amqp, Duration limit)
      throws IOException, InterruptedException {
    return await(nodes, amqp, limit, l -> l.unacknowledged() == 0, "settled");
  }

  private static QueueLevels await(
      RabbitCluster nodes,
      AmqpSettings amqp,
      Duration limit,
      java.util.function.Predicate<QueueLevels> done,
      String what)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    QueueLevels seen = null;
    IOException unanswered = null;
    while (true) {
      try {
        seen = of(nodes, amqp);
        if (done.test(seen)) {
          return seen;
        }
      } catch (IOException e) {
        unanswered = e; // a leader that did not answer in time: ask again
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            amqp.queue()
                + " not "
                + what
                + " within "
                + limit
                + ": "
                + (seen != null ? seen : unanswered));
      }
      Thread.sleep(1_000);
    }
  }
}
