package org.albumstore.consumer.internal.batch;

import com.rabbitmq.client.Delivery;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.InvalidMessageException;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.common.tls.TlsFailures;
import org.albumstore.consumer.internal.amqp.ArrivedDelivery;
import org.albumstore.consumer.internal.amqp.CommitAnnouncer;
import org.albumstore.consumer.internal.amqp.DeadLetterPublisher;
import org.albumstore.consumer.internal.metrics.ConsumerMetrics;
import org.albumstore.consumer.internal.retry.Backoff;
import org.albumstore.consumer.internal.retry.OutageLog;
import org.albumstore.consumer.internal.retry.SqlErrors;
import org.albumstore.consumer.sql.Aggregate;
import org.albumstore.consumer.sql.AggregateWriter;
import org.albumstore.consumer.sql.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one batch of deliveries into database writes and dead letters, so that afterwards every
 * delivery of the batch is either committed or confirmed in the dead-letter queue, and the caller
 * may acknowledge them all at once.
 *
 * <ul>
 *   <li>Undecodable messages (bad JSON, unknown version, impossible values) are dead-lettered with
 *       the codec's reason.
 *   <li>The others are applied in one transaction. A transient failure (database down, deadlock,
 *       ...) retries the same batch with exponential back-off and never acknowledges anything in
 *       between. A failure caused by a message's values splits the batch: each message is applied
 *       alone, and those the database still rejects are dead-lettered with its error.
 * </ul>
 *
 * <p>Retries end early only when the worker is asked to stop: the batch is then abandoned
 * unacknowledged and the broker redelivers it; whatever part of it did commit is harmless to apply
 * again (idempotent albums, review ledger). One instance per worker thread.
 */
final class BatchProcessor {
  private static final Logger log = LoggerFactory.getLogger(BatchProcessor.class);

  private final AggregateWriter writer;
  private final DeadLetterPublisher deadLetters;
  private final CommitAnnouncer announcer;
  private final ConsumerMetrics metrics;
  private final OutageLog database;
  private final OutageLog broker;
  private final CountDownLatch stop;
  private final Backoff backoff = new Backoff();

  /**
   * @param stop counted down when the worker must stop; retries give up once it is
   */
  BatchProcessor(
      AggregateWriter writer,
      DeadLetterPublisher deadLetters,
      CommitAnnouncer announcer,
      ConsumerMetrics metrics,
      OutageLog database,
      OutageLog broker,
      CountDownLatch stop) {
    this.writer = writer;
    this.deadLetters = deadLetters;
    this.announcer = announcer;
    this.metrics = metrics;
    this.database = database;
    this.broker = broker;
    this.stop = stop;
  }

  /**
   * Applies or dead-letters every delivery of the batch.
   *
   * @return true when all are done and may be acknowledged; false when a stop request ended the
   *     retries and none may be acknowledged
   */
  boolean process(List<Delivery> deliveries) {
    List<Decoded> valid = new ArrayList<>(deliveries.size());
    List<Rejected> rejected = new ArrayList<>();
    for (Delivery d : deliveries) {
      try {
        valid.add(new Decoded(d, EventCodec.decode(d.getBody())));
      } catch (InvalidMessageException e) {
        rejected.add(new Rejected(d, "invalid message: " + e.getMessage()));
      } catch (RuntimeException e) {
        // The codec promises InvalidMessageException; anything else is still about these bytes,
        // and must not kill the worker (the redelivery would kill the next one).
        rejected.add(new Rejected(d, "invalid message: cannot decode: " + e));
      }
    }
    try {
      if (!valid.isEmpty()) {
        applyAll(valid, rejected);
      }
      for (Rejected r : rejected) {
        deadLetter(r);
      }
      return true;
    } catch (Stopped e) {
      return false;
    }
  }

  private void applyAll(List<Decoded> valid, List<Rejected> rejected) throws Stopped {
    try {
      write(valid);
    } catch (Poison batchFailure) {
      if (valid.size() > 1) {
        log.warn(
            "the database rejected a batch of {} messages ({}); applying them one by one to find"
                + " the cause",
            valid.size(),
            SqlErrors.describe(batchFailure.getCause()));
      }
      for (Decoded m : valid) {
        try {
          write(List.of(m));
        } catch (Poison p) {
          rejected.add(
              new Rejected(
                  m.delivery(), "rejected by the database: " + SqlErrors.describe(p.getCause())));
        }
      }
    }
  }

  /** Commits the messages, retrying transient failures; poison and stop requests end it. */
  private void write(List<Decoded> messages) throws Poison, Stopped {
    Aggregate a = Aggregate.of(messages.stream().map(Decoded::bundle).toList());
    backoff.reset();
    while (true) {
      long attemptStart = System.nanoTime();
      try {
        WriteResult r = writer.write(a);
        database.succeeded();
        // Timings first: whoever sees the counter move then also sees its timings.
        timed(messages, attemptStart, r);
        metrics.committed(r);
        announcer.announce(r.committed());
        return;
      } catch (SQLException | RuntimeException e) {
        if (SqlErrors.isPoison(e)) {
          database.succeeded(); // the database answered: whatever outage there was has ended
          throw new Poison(e);
        }
        // A refused certificate says which check failed; the pool's own words would not.
        database.failed(TlsFailures.explain(e).orElseGet(() -> SqlErrors.describe(e)));
        pause();
      }
    }
  }

  /** Reports each committed message's stages: time in queue, wait here, apply, commit. */
  private void timed(List<Decoded> messages, long attemptStart, WriteResult r) {
    long committedAtMillis = System.currentTimeMillis();
    for (Decoded m : messages) {
      long arrivedAtMillis = committedAtMillis;
      long waitNanos = 0;
      if (m.delivery() instanceof ArrivedDelivery d) {
        arrivedAtMillis = d.arrivedAtMillis();
        waitNanos = Math.max(0, attemptStart - d.arrivedNanos());
      }
      metrics.messageCommitted(
          m.bundle().size(),
          m.bundle().publishedAtMillis(),
          arrivedAtMillis,
          waitNanos,
          r.applyNanos(),
          r.commitNanos(),
          committedAtMillis);
    }
  }

  private void deadLetter(Rejected r) throws Stopped {
    backoff.reset();
    while (true) {
      try {
        deadLetters.publish(r.delivery(), r.reason());
        broker.succeeded();
        metrics.deadLettered();
        String id = r.delivery().getProperties().getMessageId();
        log.warn("dead-lettered message {}: {}", id == null ? "(no message-id)" : id, r.reason());
        return;
      } catch (IOException | TimeoutException | RuntimeException e) {
        broker.failed("dead-letter publish: " + e);
        pause();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Stopped();
      }
    }
  }

  /** Waits out the back-off, unless a stop was requested: then the batch is abandoned. */
  private void pause() throws Stopped {
    try {
      if (stop.getCount() == 0 || stop.await(backoff.nextDelayMillis(), TimeUnit.MILLISECONDS)) {
        throw new Stopped();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Stopped();
    }
  }

  private record Decoded(Delivery delivery, WriteBundle bundle) {}

  private record Rejected(Delivery delivery, String reason) {}

  /** The database rejected the values; the cause is the failure. */
  private static final class Poison extends Exception {
    Poison(Throwable cause) {
      super(cause.getMessage(), cause, false, false);
    }
  }

  /** A stop request ended the retries. */
  private static final class Stopped extends Exception {
    Stopped() {
      super("stop requested", null, false, false);
    }
  }
}
