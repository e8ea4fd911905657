package org.albumstore.server.internal.publish;

/**
 * What the publisher reports about confirmed writes, for the server's metrics: times only, taken
 * with {@link System#nanoTime()} on the publisher thread. Called on the hot path, once per broker
 * message and once per write, so implementations must be cheap and must not block or throw.
 *
 * <p>A write's life on the publisher side: enqueued ({@link PendingWrite#enqueuedNanos()}) → its
 * bundle starts ({@code startNanos}: a publisher thread, i.e. a channel, took it) → the broker's
 * confirm arrived ({@code confirmedNanos}) → its future completed and the callbacks that answer the
 * request returned ({@code answeredNanos}). Writes refused on the way are reported by reason
 * ({@link #writesRejected}).
 */
public interface PublishObserver {
  /** One broker message carrying {@code writes} writes was confirmed. */
  default void messageConfirmed(int writes, long startNanos, long confirmedNanos) {}

  /**
   * One write of a confirmed message was answered. The writes of a message are answered one after
   * the other on the publisher thread, so a late write's answer includes the earlier ones'.
   */
  default void writeAnswered(
      PendingWrite write, long startNanos, long confirmedNanos, long answeredNanos) {}

  /** {@code writes} writes were answered 503 for {@code why} (never confirmed). */
  default void writesRejected(WriteRejectedException why, int writes) {}
}
