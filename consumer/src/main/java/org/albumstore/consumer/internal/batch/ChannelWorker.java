package org.albumstore.consumer.internal.batch;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.log.FailureStreak;
import org.albumstore.consumer.internal.amqp.ArrivedDelivery;
import org.albumstore.consumer.internal.amqp.DeadLetterPublisher;
import org.albumstore.consumer.internal.metrics.ConsumerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consuming channel and the one thread that applies its deliveries.
 *
 * <p>The amqp-client callback only hands a delivery to this worker's bounded inbox; the worker
 * thread takes what has arrived, up to {@code batchSize} ({@link BatchInbox}: no wait for a partial
 * batch unless the queue holds a backlog, what arrives during the commit is the next batch), has it
 * applied, and then acknowledges it all with one {@code basicAck(lastTag, multiple=true)}.
 * Acknowledging with {@code multiple} is safe because this thread is the only one that acknowledges
 * on the channel, and it processes deliveries in the order they arrived: every earlier tag was in
 * this batch or in one already done.
 *
 * <p>Inbox size: the broker never has more than {@code prefetch} unacknowledged deliveries out on a
 * consumer, so a {@code prefetch}-sized inbox would do, except right after a connection recovery,
 * when deliveries of the dead channel may still wait here while the new one receives a full
 * prefetch. Twice the prefetch covers that; beyond it the callback blocks, which only delays this
 * channel's deliveries.
 *
 * <p>After a recovery, acknowledgements of the dead channel's tags are dropped by amqp-client (they
 * are not sent); those messages are redelivered and the review ledger makes them harmless.
 *
 * <p>Why each worker consumes with its own priority ({@code x-priority}): the broker delivers to
 * the highest-priority consumer that has room in its prefetch, and to the next only while that one
 * is full or gone. Round-robin over equal consumers would split a steady flow into as many trickles
 * as there are workers, each committing its own small transaction (and acknowledging it) every few
 * messages: at a steady rate one worker takes the flow and commits fuller batches, while a backlog,
 * which fills the first worker's prefetch at once, still spreads over all of them, and a worker
 * whose connection is recovering hands the flow to the next.
 */
public final class ChannelWorker {
  private static final Logger log = LoggerFactory.getLogger(ChannelWorker.class);
  private static final long IDLE_POLL_MILLIS = 100;
  private static final String PRIORITY_ARGUMENT = "x-priority";

  private final String name;
  private final Channel channel;
  private final List<AmqpSettings.Partition> partitions;
  private final int priority;
  private final BatchInbox<Delivery> inbox;
  private final BatchProcessor processor;
  private final DeadLetterPublisher deadLetters;
  private final ConsumerMetrics metrics;

  /** Counted down by {@link #requestStop()}; the processor's retries give up once it is. */
  private final CountDownLatch stop;

  private final Thread thread;
  private volatile boolean exited;
  private volatile boolean cancelledByBroker;
  private final FailureStreak ackFailures = new FailureStreak();

  /**
   * A worker for {@code channel} of {@code connection} (its dead letters go out on a channel of
   * their own on the same connection).
   *
   * @param name the worker thread's name, also its consumer tag
   * @param priority this worker's consumer priority: the highest one takes a steady flow
   * @param partitions the queues this channel consumes, one broker consumer each
   */
  public ChannelWorker(
      WorkerConfig config,
      Connection connection,
      Channel channel,
      String name,
      int priority,
      List<AmqpSettings.Partition> partitions) {
    this.name = name;
    this.channel = channel;
    this.partitions = List.copyOf(partitions);
    this.priority = priority;
    // The prefetch applies per broker consumer: a channel has one per partition out at most.
    this.inbox =
        new BatchInbox<>(
            2 * config.prefetch() * this.partitions.size(), config.batchSize(), config.batchWait());
    this.stop = new CountDownLatch(1);
    this.deadLetters =
        new DeadLetterPublisher(connection, config.amqp(), config.deadLetterConfirmMillis());
    this.processor =
        new BatchProcessor(
            config.writer(),
            deadLetters,
            config.announcer(),
            config.metrics(),
            config.databaseOutages(),
            config.brokerOutages(),
            stop);
    this.metrics = config.metrics();
    this.thread = new Thread(this::run, name);
  }

  /**
   * Starts the worker thread, then one broker consumer per partition, tagged with this worker's
   * name (partition 0) or the name and the partition's number. All deliver into the one inbox, in
   * the channel's order, so one multiple-ack still covers exactly the batch.
   */
  public void start() throws IOException {
    thread.start();
    for (AmqpSettings.Partition p : partitions) {
      channel.basicConsume(
          p.queue(),
          false,
          tag(p),
          false,
          false,
          Map.of(PRIORITY_ARGUMENT, priority),
          (tag, delivery) -> enqueue(delivery, p),
          tag -> {
            cancelledByBroker = true;
            log.warn("{}: the broker cancelled the consumer of {} (queue deleted?)", name, tag);
          });
    }
  }

  private String tag(AmqpSettings.Partition p) {
    return p.index() == 0 ? name : name + "." + p.index();
  }

  /** Whether the channel is open with its consumer registered and the worker running. */
  public boolean consuming() {
    return channel.isOpen() && !cancelledByBroker && !exited;
  }

  private void enqueue(Delivery delivery, AmqpSettings.Partition from) {
    Delivery arrived = new ArrivedDelivery(delivery, from); // stamped now, for the stage metrics
    try {
      while (!inbox.offer(arrived, IDLE_POLL_MILLIS)) {
        if (exited) {
          // Nobody will ever acknowledge it; it goes back to the queue when the channel closes.
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try {
      while (stop.getCount() > 0) {
        List<Delivery> batch = inbox.nextBatch(IDLE_POLL_MILLIS, () -> stop.getCount() == 0);
        if (!batch.isEmpty()) {
          handle(batch);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      // Not expected: BatchProcessor handles every failure of a message. Closing the channel hands
      // this worker's unacknowledged messages back to the broker for the other channels.
      log.error("{}: worker failed, closing its channel so its messages are redelivered", name, e);
      closeChannel();
    } finally {
      exited = true;
    }
  }

  private void handle(List<Delivery> batch) {
    int redelivered = 0;
    for (Delivery d : batch) {
      if (d.getEnvelope().isRedeliver()) {
        redelivered++;
      }
    }
    metrics.redelivered(redelivered);
    if (processor.process(batch)) {
      ack(batch.get(batch.size() - 1).getEnvelope().getDeliveryTag(), batch.size());
    }
  }

  private void ack(long lastTag, int count) {
    try {
      channel.basicAck(lastTag, true);
      if (ackFailures.succeeded().isPresent()) {
        log.info("{}: acknowledgements go through again", name);
      }
    } catch (IOException | RuntimeException e) {
      // The channel is closed (connection lost, recovery pending). The batch is committed; the
      // broker redelivers it and the ledger turns the redelivery into a no-op.
      if (ackFailures.failed()) {
        log.warn(
            "{}: cannot acknowledge {} applied messages, they will be redelivered: {}",
            name,
            count,
            e.toString());
      }
    }
  }

  /**
   * Asks the worker to finish the batch in hand (one more attempt if it is failing) and exit.
   * Deliveries still in the inbox are left unacknowledged: closing the channel requeues them.
   */
  public void requestStop() {
    stop.countDown();
  }

  /** Waits for the worker thread to exit; returns false if it did not within the time. */
  public boolean awaitExit(long millis) throws InterruptedException {
    thread.join(Math.max(1, millis));
    return !thread.isAlive();
  }

  /** Last resort for a worker stuck past its deadline. */
  public void interrupt() {
    thread.interrupt();
  }

  /** Closes the dead-letter channel, then the consuming channel (requeues anything unacked). */
  public void closeChannels() {
    deadLetters.close();
    closeChannel();
  }

  private void closeChannel() {
    if (!channel.isOpen()) {
      return;
    }
    try {
      channel.close();
    } catch (IOException | TimeoutException | RuntimeException e) {
      log.warn("{}: closing the channel failed: {}", name, e.toString());
    }
  }

  public String name() {
    return name;
  }
}
