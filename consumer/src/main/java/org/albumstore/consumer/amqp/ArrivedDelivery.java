package org.albumstore.consumer.amqp;

import com.rabbitmq.client.Delivery;

/**
 * A delivery stamped with the moment the broker handed it to this consumer, before it waits in the
 * worker's inbox and for its batch to fill: the boundary between "time in queue" and "time in the
 * consumer" in the consumer's stage metrics.
 *
 * <p>Both clocks: wall-clock milliseconds to compare with the publisher's {@code publishedAtMillis}
 * (another process, maybe another machine), and {@link System#nanoTime()} for the precise local
 * intervals that follow.
 */
public final class ArrivedDelivery extends Delivery {
  private final long arrivedAtMillis;
  private final long arrivedNanos;

  public ArrivedDelivery(Delivery d) {
    super(d.getEnvelope(), d.getProperties(), d.getBody());
    this.arrivedAtMillis = System.currentTimeMillis();
    this.arrivedNanos = System.nanoTime();
  }

  public long arrivedAtMillis() {
    return arrivedAtMillis;
  }

  public long arrivedNanos() {
    return arrivedNanos;
  }
}
