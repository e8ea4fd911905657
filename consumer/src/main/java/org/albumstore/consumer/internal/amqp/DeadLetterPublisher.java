package org.albumstore.consumer.internal.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a message that can never be applied to the dead-letter exchange of the partition it came
 * from ({@link ArrivedDelivery#partition()}; partition 0 for any other delivery), with the reason
 * in the {@link Topology#REASON_HEADER} header, and returns only once the broker has confirmed it.
 * The caller acknowledges the original only after that, so a poison message is in exactly one of
 * the two queues at any time, or in both after a crash (never in neither).
 *
 * <p>Why publish instead of {@code basicReject(requeue=false)}: the queue's dead-letter exchange
 * would carry the message but not the reason. Why a channel of its own, in confirm mode: the
 * consuming channel must not wait for confirms, and a channel is not shared between threads. One
 * per worker, opened on the first poison message (most workers never need one).
 */
public final class DeadLetterPublisher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DeadLetterPublisher.class);

  /** Longest reason kept in the header; database messages can quote long values. */
  static final int MAX_REASON = 1_000;

  private final Connection connection;
  private final AmqpSettings settings;
  private final long confirmTimeoutMillis;
  private Channel channel;

  public DeadLetterPublisher(
      Connection connection, AmqpSettings settings, long confirmTimeoutMillis) {
    this.connection = connection;
    this.settings = settings;
    this.confirmTimeoutMillis = confirmTimeoutMillis;
  }

  /**
   * Publishes the original body and properties plus the reason header and waits for the confirm.
   *
   * @throws IOException if the broker refused or the channel failed; the caller retries
   * @throws TimeoutException if no confirm arrived in time; the caller retries
   */
  public synchronized void publish(Delivery original, String reason)
      throws IOException, TimeoutException, InterruptedException {
    Channel ch = channel();
    AMQP.BasicProperties props = original.getProperties();
    Map<String, Object> headers = new HashMap<>();
    if (props.getHeaders() != null) {
      headers.putAll(props.getHeaders());
    }
    headers.put(Topology.REASON_HEADER, shorten(reason));
    String deadLetterExchange =
        original instanceof ArrivedDelivery arrived
            ? arrived.partition().deadLetterExchange()
            : settings.deadLetterExchange();
    ch.basicPublish(
        deadLetterExchange,
        original.getEnvelope().getRoutingKey(),
        props.builder().headers(headers).build(),
        original.getBody());
    // Closes the channel on a nack or a timeout; the next call opens a fresh one.
    ch.waitForConfirmsOrDie(confirmTimeoutMillis);
  }

  private Channel channel() throws IOException {
    if (channel == null || !channel.isOpen()) {
      channel = connection.createChannel();
      channel.confirmSelect();
    }
    return channel;
  }

  static String shorten(String reason) {
    String r = reason == null || reason.isBlank() ? "unknown" : reason;
    return r.length() <= MAX_REASON ? r : r.substring(0, MAX_REASON) + "...";
  }

  @Override
  public synchronized void close() {
    if (channel != null && channel.isOpen()) {
      try {
        channel.close();
      } catch (IOException | TimeoutException | RuntimeException e) {
        log.warn("closing the dead-letter channel failed: {}", e.toString());
      }
    }
    channel = null;
  }
}
