package org.albumstore.faults.nemesis;

import com.rabbitmq.client.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;

/**
 * The write queue's backlog through a run, for what each fault leaves behind: every {@value
 * #PERIOD_MILLIS} ms, the ready messages of all its partitions (a passive declare each, through the
 * balancer), with the time since the probe started. A sample the broker cannot answer (a fault) is
 * skipped, and the connection opened again at the next one. One thread, stopped by {@link #close}.
 * {@link #deadLetters} samples the partitions' dead-letter queues the same way.
 */
public final class BacklogProbe implements AutoCloseable {
  static final long PERIOD_MILLIS = 500;

  /** One sample: milliseconds since the probe started, and the ready messages then. */
  public record Sample(long atMillis, long messages) {}

  /** What one sample counts, on the probe's connection. */
  @FunctionalInterface
  private interface Count {
    long messages(Connection c) throws Exception;
  }

  private final Count count;
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private final long start = System.nanoTime();
  private final Instant startedAt = Instant.now();
  private final AmqpSettings amqp;
  private volatile boolean running = true;
  private Connection connection;

  private BacklogProbe(AmqpSettings amqp, Count count, String name) {
    this.amqp = amqp;
    this.count = count;
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
  }

  /** Starts sampling now: the probe's times count from this moment. */
  public static BacklogProbe start(AmqpSettings amqp) {
    BacklogProbe p =
        new BacklogProbe(
            amqp,
            c -> {
              long total = 0;
              for (long n : Topology.depths(c, amqp).values()) {
                total += Math.max(0, n);
              }
              return total;
            },
            "nemesis-backlog-probe");
    p.thread.start();
    return p;
  }

  /**
   * Starts sampling the messages waiting in the partitions' dead-letter queues now: what consumers
   * dead-lettered and nobody has redriven yet.
   */
  public static BacklogProbe deadLetters(AmqpSettings amqp) {
    BacklogProbe p =
        new BacklogProbe(
            amqp,
            c -> {
              long total = 0;
              for (AmqpSettings.Partition part : amqp.partitionList()) {
                total += Math.max(0, Topology.messages(c, part.deadLetterQueue()));
              }
              return total;
            },
            "dead-letter-probe");
    p.thread.start();
    return p;
  }

  /** The wall-clock moment the samples' times count from. */
  public Instant startedAt() {
    return startedAt;
  }

  private void run() {
    while (running) {
      sample().ifPresent(n -> record((System.nanoTime() - start) / 1_000_000, n));
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private Optional<Long> sample() {
    try {
      if (connection == null || !connection.isOpen()) {
        connection = AmqpConnections.open(amqp, thread.getName());
      }
      return Optional.of(count.messages(connection));
    } catch (Exception e) {
      closeConnection();
      return Optional.empty();
    }
  }

  private synchronized void record(long atMillis, long messages) {
    samples.add(new Sample(atMillis, messages));
  }

  public synchronized List<Sample> samples() {
    return List.copyOf(samples);
  }

  /**
   * What a fault healed at {@code heal} (since the probe's start) left: the backlog at its heal
   * (the first sample from then on), and how long after the heal the backlog first came back to
   * what it was at the fault's start ({@code from}), or to {@value #DRAINED_MESSAGES} messages if
   * that was less; empty when it never did within the run.
   */
  public synchronized Backlog after(Duration from, Duration heal) {
    long before = latestAt(from.toMillis()).orElse(0L);
    long threshold = Math.max(before, DRAINED_MESSAGES);
    long atHeal = -1;
    Duration drain = null;
    for (Sample s : samples) {
      if (s.atMillis() < heal.toMillis()) {
        continue;
      }
      if (atHeal < 0) {
        atHeal = s.messages();
      }
      if (s.messages() <= threshold) {
        drain = Duration.ofMillis(s.atMillis() - heal.toMillis());
        break;
      }
    }
    return new Backlog(atHeal, Optional.ofNullable(drain));
  }

  /** Below this many ready messages the queue counts as drained (a consumer's batch in passing). */
  static final long DRAINED_MESSAGES = 50;

  /**
   * @param atHeal ready messages at the heal, -1 when no sample came after it
   * @param drain from the heal to the backlog's return to its level before the fault
   */
  public record Backlog(long atHeal, Optional<Duration> drain) {}

  private Optional<Long> latestAt(long millis) {
    Long found = null;
    for (Sample s : samples) {
      if (s.atMillis() > millis) {
        break;
      }
      found = s.messages();
    }
    return Optional.ofNullable(found);
  }

  private void closeConnection() {
    if (connection != null) {
      try {
        connection.abort(1_000);
      } catch (RuntimeException e) {
        // already gone
      }
      connection = null;
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(5_000);
    closeConnection();
  }
}
