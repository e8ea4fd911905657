package org.albumstore.client;

/**
 * The write queue as seen at one moment: with several partitions, their sum ({@link #plus}).
 *
 * @param epochMillis when it was read
 * @param source {@code management-api}, {@code amqp} or {@code n/a}
 * @param depth messages in the queue (ready + unacknowledged), -1 when unknown; the AMQP fallback
 *     only sees ready messages
 * @param unacked messages delivered but not yet acknowledged, -1 when unknown
 * @param publishRate messages/s published to the queue, NaN when unknown
 * @param deliverRate messages/s delivered from the queue, NaN when unknown
 */
public record QueueSample(
    long epochMillis,
    String source,
    long depth,
    long unacked,
    double publishRate,
    double deliverRate) {
  public static final String NONE = "n/a";

  public static QueueSample unknown(long epochMillis) {
    return new QueueSample(epochMillis, NONE, -1, -1, Double.NaN, Double.NaN);
  }

  /**
   * This reading and another partition's, taken together: counts and rates add up, and a count
   * unknown in either is unknown in the sum.
   */
  public QueueSample plus(QueueSample other) {
    return new QueueSample(
        epochMillis,
        source,
        depthKnown() && other.depthKnown() ? depth + other.depth : -1,
        unacked >= 0 && other.unacked >= 0 ? unacked + other.unacked : -1,
        publishRate + other.publishRate,
        deliverRate + other.deliverRate);
  }

  public boolean depthKnown() {
    return depth >= 0;
  }

  /** Nothing left to apply: empty and nothing in flight at a consumer. */
  public boolean drained() {
    return depth == 0 && unacked == 0;
  }
}
