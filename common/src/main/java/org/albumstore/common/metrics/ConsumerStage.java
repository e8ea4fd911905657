package org.albumstore.common.metrics;

import java.util.Locale;

/**
 * The stages of a write after publishing, in order: the values of the {@code stage} tag of {@link
 * MetricNames#CONSUMER_STAGE}.
 */
public enum ConsumerStage {
  /** Published → delivered to the consumer: the broker's queue and the network. */
  QUEUE,
  /** Delivered → its transaction begins: the worker's inbox, the batch filling up, retries. */
  BATCH_WAIT,
  /** The transaction's statements. */
  APPLY,
  /** The transaction's commit. */
  COMMIT;

  /** The tag value, e.g. {@code batch_wait}. */
  public String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
