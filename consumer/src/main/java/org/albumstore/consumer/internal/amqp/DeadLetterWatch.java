package org.albumstore.consumer.internal.amqp;

import com.rabbitmq.client.Connection;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many messages wait in each partition's dead-letter queue, read every {@value #PERIOD_SECONDS}
 * s with a passive declare and exported as the gauge {@value #GAUGE} (Prometheus: {@code
 * albumstore_consumer_dead_letter_messages{queue=...}}), which the {@code DeadLetters} alert reads.
 *
 * <p>Why the consumer counts what the broker holds: a write can reach the dead-letter queue without
 * any consumer sending it there. A quorum queue dead-letters a message itself once it has come back
 * {@link Topology#DELIVERY_LIMIT} times (consumers that died holding it), and no consumer sees that
 * happen, so the consumer's own {@code dead_lettered_total} cannot count it. Amazon MQ for RabbitMQ
 * 4 publishes no per-queue metric, and its management API is to be read at most once a minute, so
 * the broker's figures are not there to alert on either; a passive declare over AMQP works on every
 * broker. -1 while the queue cannot be read.
 *
 * <p>Threads: one scheduler thread writes the depths; the scrape thread reads them from a
 * concurrent map, so a reading is at most one period old.
 */
public final class DeadLetterWatch implements AutoCloseable {
  public static final String GAUGE = "albumstore.consumer.dead.letter.messages";
  static final long PERIOD_SECONDS = 15;

  private static final Logger log = LoggerFactory.getLogger(DeadLetterWatch.class);
  private static final int CLOSE_MILLIS = 2000;

  private final Connection connection;
  private final List<String> queues;
  private final Map<String, Long> depths = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "albumstore-dead-letter-watch");
            t.setDaemon(true); // a safety net only: close() ends it
            return t;
          });
  private boolean failing;

  private DeadLetterWatch(Connection connection, List<String> queues) {
    this.connection = connection;
    this.queues = List.copyOf(queues);
    queues.forEach(q -> depths.put(q, -1L));
  }

  /**
   * Starts reading the dead-letter queues of {@code amqp}'s partitions on {@code connection}, which
   * it owns from now on, and registers one gauge per queue in {@code registry}.
   */
  public static DeadLetterWatch start(
      Connection connection, AmqpSettings amqp, MeterRegistry registry) {
    DeadLetterWatch watch = unstarted(connection, amqp);
    for (String q : watch.queues) {
      Gauge.builder(GAUGE, watch, w -> w.depths.getOrDefault(q, -1L))
          .description("Messages waiting in a dead-letter queue (-1: cannot be read)")
          .tag("queue", q)
          .register(registry);
    }
    watch.timer.scheduleWithFixedDelay(watch::poll, 0, PERIOD_SECONDS, TimeUnit.SECONDS);
    return watch;
  }

  /** A watch that reads only when {@link #poll} is called: for the tests. */
  static DeadLetterWatch unstarted(Connection connection, AmqpSettings amqp) {
    return new DeadLetterWatch(
        connection,
        amqp.partitionList().stream().map(AmqpSettings.Partition::deadLetterQueue).toList());
  }

  /** The last reading of {@code queue}: its messages, or -1. */
  long depth(String queue) {
    return depths.getOrDefault(queue, -1L);
  }

  /** Reads every dead-letter queue once. */
  void poll() {
    try {
      for (String q : queues) {
        depths.put(q, Topology.messages(connection, q));
      }
      if (failing) {
        failing = false;
        log.info("the dead-letter watch reads the dead-letter queues again");
      }
    } catch (IOException | TimeoutException | RuntimeException e) {
      queues.forEach(q -> depths.put(q, -1L));
      if (!failing) {
        failing = true;
        log.warn("the dead-letter watch cannot read the dead-letter queues ({})", e.toString());
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      if (connection.isOpen()) {
        connection.close(CLOSE_MILLIS);
      }
    } catch (IOException | RuntimeException e) {
      log.debug("closing the dead-letter watch's connection", e);
    }
  }
}
