package org.albumstore.common.config;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * How to reach the broker and which queue carries the writes.
 *
 * <p>The exchange, dead-letter exchange and dead-letter queue are derived from the queue name so
 * that one setting moves a whole topology (tests use a fresh queue name each and never see each
 * other's messages).
 *
 * @param uri {@code amqp://} or {@code amqps://} URI, credentials included
 * @param queue the durable queue the server publishes to and the consumer reads
 * @param queueType {@code classic} or {@code quorum}
 */
public record AmqpSettings(String uri, String queue, QueueType queueType) {

  public enum QueueType {
    CLASSIC,
    QUORUM;

    public static QueueType parse(String s) {
      try {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            Keys.QUEUE_TYPE + " must be classic or quorum, was '" + s + "'");
      }
    }

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public AmqpSettings {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(queueType, "queueType");
    String scheme = URI.create(uri).getScheme();
    if (!"amqp".equals(scheme) && !"amqps".equals(scheme)) {
      throw new IllegalArgumentException(
          Keys.AMQP_URI + " must start with amqp:// or amqps://, was '" + redact(uri) + "'");
    }
    if (queue.isBlank() || queue.length() > 200) {
      throw new IllegalArgumentException(Keys.QUEUE + " must be 1 to 200 characters");
    }
  }

  public static AmqpSettings from(Env env) {
    return new AmqpSettings(
        env.get(Keys.AMQP_URI, Defaults.AMQP_URI),
        env.get(Keys.QUEUE, Defaults.QUEUE),
        QueueType.parse(env.get(Keys.QUEUE_TYPE, Defaults.QUEUE_TYPE)));
  }

  public AmqpSettings withQueue(String otherQueue) {
    return new AmqpSettings(uri, otherQueue, queueType);
  }

  /** The direct exchange the server publishes to. */
  public String exchange() {
    return queue;
  }

  /** Where messages that can never be applied are routed. */
  public String deadLetterExchange() {
    return queue + ".dlx";
  }

  public String deadLetterQueue() {
    return queue + ".dlq";
  }

  public boolean tls() {
    return uri.startsWith("amqps:");
  }

  /** The URI with its password replaced, for logs and error messages. */
  public String redactedUri() {
    return redact(uri);
  }

  static String redact(String uri) {
    return uri.replaceFirst("://([^:/@]*):[^@/]*@", "://$1:***@");
  }

  @Override
  public String toString() {
    return "AmqpSettings[uri=" + redactedUri() + ", queue=" + queue + ", type=" + queueType + "]";
  }
}
