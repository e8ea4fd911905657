package org.albumstore.consumer.stats;

/**
 * Where committed messages spent their time, for the consumer's metrics. Called by the worker
 * threads after each commit: cheap, never blocking, never throwing.
 */
public interface WriteTimings {
  /** Records nothing. */
  WriteTimings NONE = new WriteTimings() {};

  /** One transaction committed {@code messages} messages. */
  default void batchCommitted(int messages, long applyNanos, long commitNanos) {}

  /**
   * One message of a committed transaction.
   *
   * @param writes the albums and reviews it carried (each is one HTTP request's write)
   * @param publishedAtMillis when the server published it (wall clock, from the message)
   * @param arrivedAtMillis when the broker delivered it here (wall clock)
   * @param waitNanos delivery → its transaction began (inbox, batch fill, decode, retries)
   * @param applyNanos the transaction's statements, connection borrow included
   * @param commitNanos the transaction's commit
   * @param committedAtMillis when the commit returned (wall clock): the writes are visible
   */
  default void messageCommitted(
      int writes,
      long publishedAtMillis,
      long arrivedAtMillis,
      long waitNanos,
      long applyNanos,
      long commitNanos,
      long committedAtMillis) {}
}
