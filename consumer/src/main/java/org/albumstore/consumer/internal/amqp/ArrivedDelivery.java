package org.albumstore.consumer.internal.amqp;

import com.rabbitmq.client.Delivery;
import org.albumstore.common.config.AmqpSettings;

/**
 * A delivery stamped with the moment the broker handed it to this consumer, before it waits in the
 * worker's inbox and for its batch to fill: the boundary between "time in queue" and "time in the
 * consumer" in the consumer's stage metrics.
 *
 * <p>Both clocks: wall-clock milliseconds to compare with the publisher's {@code publishedAtMillis}
 * (another process, maybe another machine), and {@link System#nanoTime()} for the precise local
 * intervals that follow.
 *
 * <p>It also names the partition it came from, so that a poison message is dead-lettered beside its
 * own queue (and {@code redrive} returns it there).
 */
public final class ArrivedDelivery extends Delivery {
  private final long arrivedAtMillis;
  private final long arrivedNanos;
  private final AmqpSettings.Partition partition;

  public ArrivedDelivery(Delivery d, AmqpSettings.Partition partition) {
    super(d.getEnvelope(), d.getProperties(), d.getBody());
    this.partition = partition;
    this.arrivedAtMillis = System.currentTimeMillis();
    this.arrivedNanos = System.nanoTime();
  }

  public long arrivedAtMillis() {
    return arrivedAtMillis;
  }

  public long arrivedNanos() {
    return arrivedNanos;
  }

  public AmqpSettings.Partition partition() {
    return partition;
  }
}
