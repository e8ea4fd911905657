package org.albumstore.client.internal.broker;

import org.albumstore.client.QueueSample;

/** Reads the write queue's state. Used by one thread at a time (the sampler's). */
public interface QueueProbe extends AutoCloseable {
  /** {@code management-api} or {@code amqp}: how the report names the source. */
  String source();

  /**
   * @throws Exception when the queue cannot be read now (the sampler records "unknown" and goes on)
   */
  QueueSample sample() throws Exception;

  @Override
  void close();
}
