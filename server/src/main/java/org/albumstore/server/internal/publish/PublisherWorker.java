package org.albumstore.server.internal.publish;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.RandomUuids;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.common.log.FailureStreak;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One publisher thread and the one confirm-mode channel it owns (a channel is never used by two
 * threads, which the client library requires for confirms to mean anything per publisher).
 *
 * <p>Loop: take the next bundle from the {@link Bundler} (which decides when it may go in flight),
 * publish it as ONE persistent message with {@code mandatory=true}, wait for that message's
 * confirm, tell the bundler it landed, then complete every write of the bundle at once.
 *
 * <p>Why the guarantee survives group commit: a write's future completes normally only on this
 * path: basicPublish returned, {@code waitForConfirmsOrDie} returned (the broker acked every
 * message of the channel, i.e. this one, the only one in flight), and no basic.return arrived for
 * its message ID. The broker sends basic.return before the ack, and the client library handles both
 * on the connection thread in frame order, so the return is always seen before the wait ends.
 * Anything else (nack, timeout, channel or connection closed, no channel) fails the whole bundle.
 *
 * <p>Why synchronous waits rather than async confirm listeners: with one message in flight per
 * channel the confirm-to-writes mapping is trivial (no sequence-number bookkeeping that could
 * complete the wrong futures), {@code OrDie} closes a channel whose state is unknown, and bundle
 * commit already amortises the round trip: while one message waits, the next bundle accumulates.
 */
final class PublisherWorker implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(PublisherWorker.class);
  private static final long POLL_MS = 100;
  private static final long CHANNEL_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final Runnable NO_ANSWERS = () -> {};

  private final String name;
  private final Bundler bundler;
  private final BrokerConnector broker;
  private final int confirmTimeoutMs;
  private final int messageVersion;
  private final long maxWaitNanos;
  private final BooleanSupplier stopping;
  private final PublishObserver observer;
  private final Set<String> returnedIds = ConcurrentHashMap.newKeySet();

  /** The stream's partitions, taken in turn from a different one in each worker. */
  private final List<AmqpSettings.Partition> partitions;

  private int nextPartition;
  private Channel channel;
  private long nextChannelAttempt = System.nanoTime();
  private Exception channelError;
  private final FailureStreak failures = new FailureStreak();

  /**
   * @param index this worker's number in the pool: its first partition, so that the pool's bundles
   *     spread over the partitions from the start
   * @param stopping true once the publisher stops: the worker publishes only what is queued
   *     already, then ends
   */
  PublisherWorker(
      String name,
      int index,
      Bundler bundler,
      BrokerConnector broker,
      int confirmTimeoutMs,
      int messageVersion,
      BooleanSupplier stopping,
      PublishObserver observer) {
    this.name = name;
    this.bundler = bundler;
    this.broker = broker;
    this.confirmTimeoutMs = confirmTimeoutMs;
    this.messageVersion = messageVersion;
    this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(confirmTimeoutMs);
    this.stopping = stopping;
    this.observer = observer;
    this.partitions = broker.settings().partitionList();
    this.nextPartition = index % partitions.size();
  }

  @Override
  public void run() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        boolean draining = stopping.getAsBoolean();
        List<PendingWrite> bundle = bundler.next(POLL_MS, draining);
        if (bundle == null) {
          if (draining) {
            break; // drained after close(): nothing left that could still be confirmed
          }
          continue;
        }
        Runnable answers;
        try {
          answers = publish(bundle);
        } catch (RuntimeException e) {
          // A bug, not a broker state: fail this bundle (completing a completed future is a
          // no-op) and keep the thread, so the pool never silently shrinks.
          log.error("{}: publishing {} writes failed unexpectedly", name, bundle.size(), e);
          answers = () -> rejectAll(bundle, Rejections.NOT_CONFIRMED, e);
          discardChannel();
        } finally {
          // Before the answers: the next bundle can go in flight while this one's are written.
          bundler.landed();
        }
        answers.run();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      discardChannel();
    }
  }

  /**
   * Publishes the bundle and waits for the broker's answer; returns what answers its writes, to be
   * run once the bundler knows the bundle landed. Writes that were never sent are answered here.
   */
  private Runnable publish(List<PendingWrite> bundle) throws InterruptedException {
    long now = System.nanoTime();
    List<PendingWrite> live = dropExpired(bundle, now);
    if (live.isEmpty()) {
      return NO_ANSWERS;
    }
    if (broker.isBlocked()) {
      // Queued before the block began: publishing now would only wait for the confirm timeout.
      // Writes already published keep waiting for their confirm, which arrives after the unblock.
      rejectAll(live, Rejections.BROKER_BLOCKED, null);
      return NO_ANSWERS;
    }
    Channel ch = channel();
    if (ch == null) {
      rejectAll(live, Rejections.BROKER_UNAVAILABLE, channelError);
      return NO_ANSWERS;
    }
    return publishAndConfirm(ch, live, now);
  }

  /**
   * The writes still worth publishing; those that waited longer than the confirm timeout are
   * answered here: their clients are about to give up.
   */
  private List<PendingWrite> dropExpired(List<PendingWrite> bundle, long now) {
    List<PendingWrite> live = new ArrayList<>(bundle.size());
    for (PendingWrite w : bundle) {
      if (now - w.enqueuedNanos() > maxWaitNanos) {
        w.reject(Rejections.WAITED_TOO_LONG);
        observer.writesRejected(Rejections.WAITED_TOO_LONG, 1);
      } else {
        live.add(w);
      }
    }
    return live;
  }

  /**
   * Publishes {@code live} as one message on {@code ch} and waits for its confirm; returns what
   * answers the writes. {@code startNanos}: when the bundle was taken.
   */
  private Runnable publishAndConfirm(Channel ch, List<PendingWrite> live, long startNanos)
      throws InterruptedException {
    WriteBundle message = toBundle(live, messageVersion);
    AMQP.BasicProperties props = EventCodec.properties(message);
    byte[] body = EventCodec.encode(message);
    returnedIds.clear();
    long confirmedNanos;
    try {
      ch.basicPublish(nextExchange(), Topology.ROUTING_KEY, true, props, body);
      ch.waitForConfirmsOrDie(confirmTimeoutMs);
      confirmedNanos = System.nanoTime();
    } catch (InterruptedException e) {
      rejectAll(live, Rejections.SHUTTING_DOWN, null);
      throw e;
    } catch (TimeoutException | IOException | RuntimeException e) {
      // Timeout or nack (waitForConfirmsOrDie closed the channel), or the channel or connection
      // closed (ShutdownSignal/AlreadyClosed). Either way the channel may still count this
      // message as outstanding, so it is replaced rather than reused.
      WriteRejectedException why = whyNotConfirmed(ch, props.getMessageId(), e);
      discardChannel();
      return () -> rejectAll(live, why, e);
    }
    if (returnedIds.remove(props.getMessageId())) {
      return () -> rejectAll(live, Rejections.UNROUTABLE, null);
    }
    return confirmed(live, startNanos, confirmedNanos);
  }

  /**
   * The exchange of the partition this bundle goes to: each in turn. No affinity of an album to a
   * partition is needed (the consumers already apply one queue's messages on many channels in no
   * set order; counters commute, inserts and the ledger are idempotent), so a bundle stays as large
   * as with one queue.
   */
  private String nextExchange() {
    AmqpSettings.Partition p = partitions.get(nextPartition);
    nextPartition = (nextPartition + 1) % partitions.size();
    return p.exchange();
  }

  /**
   * Why a message was not confirmed. A returned message explains a nack best: Qpid Broker-J (the
   * embedded broker) answers an unroutable mandatory message with basic.return and a nack, where
   * RabbitMQ acks it.
   */
  private WriteRejectedException whyNotConfirmed(Channel ch, String messageId, Exception e) {
    if (returnedIds.remove(messageId)) {
      return Rejections.UNROUTABLE;
    }
    if (e instanceof TimeoutException) {
      return Rejections.CONFIRM_TIMEOUT;
    }
    return ch.isOpen() ? Rejections.NOT_CONFIRMED : Rejections.BROKER_UNAVAILABLE;
  }

  /** Notes a confirmed message; returns what answers its writes 200. */
  private Runnable confirmed(List<PendingWrite> live, long startNanos, long confirmedNanos) {
    failures
        .succeeded()
        .ifPresent(
            s ->
                log.info(
                    "{}: publishing confirmed again after {} failed messages", name, s.failures()));
    observer.messageConfirmed(live.size(), startNanos, confirmedNanos);
    return () -> {
      for (PendingWrite w : live) {
        w.confirmed(); // runs the callback that answers the request, on this thread
        observer.writeAnswered(w, startNanos, confirmedNanos, System.nanoTime());
      }
    };
  }

  /**
   * The message of a bundle's writes. From version 2 the unkeyed reviews are counted per album, in
   * the order their albums first appear; in version 1 each travels on its own and gets the event ID
   * that version requires. Version 3 adds, per reviewed album, the latest time a review of it was
   * accepted.
   */
  static WriteBundle toBundle(List<PendingWrite> writes, int version) {
    List<NewAlbum> albums = new ArrayList<>();
    List<Review> reviews = new ArrayList<>();
    Map<String, int[]> votes = new LinkedHashMap<>();
    Map<String, Long> reviewedAt = new LinkedHashMap<>();
    for (PendingWrite w : writes) {
      Review r = w.review();
      if (w.album() != null) {
        albums.add(w.album());
        continue;
      }
      if (r.keyed()) {
        reviews.add(r);
      } else if (version >= 2) {
        votes.computeIfAbsent(r.albumId(), k -> new int[2])[r.vote() == Vote.LIKE ? 0 : 1]++;
      } else {
        reviews.add(new Review(RandomUuids.next(), r.albumId(), r.vote(), false));
      }
      if (version >= 3) {
        reviewedAt.merge(r.albumId(), w.acceptedAtMillis(), Math::max);
      }
    }
    List<AlbumVotes> counted = new ArrayList<>(votes.size());
    votes.forEach((album, c) -> counted.add(new AlbumVotes(album, c[0], c[1])));
    // A fresh message ID: the consumer's ledger key for the unkeyed reviews of this message.
    // Time-ordered (v7), so that the ledger's primary-key inserts land near the right edge of the
    // index instead of all over it.
    long now = System.currentTimeMillis();
    return new WriteBundle(
        version, now, RandomUuids.timeOrdered(now), albums, reviews, counted, reviewedAt);
  }

  /** The owned channel, reopened when it closed; null while none can be had (rate-limited). */
  private Channel channel() {
    if (channel != null && channel.isOpen()) {
      return channel;
    }
    discardChannel();
    long now = System.nanoTime();
    Connection c = broker.connection();
    if (now - nextChannelAttempt < 0 || c == null || !c.isOpen()) {
      return null;
    }
    Channel ch = null;
    try {
      ch = c.createChannel();
      if (ch == null) {
        throw new IOException("the broker's channel limit is reached");
      }
      ch.confirmSelect();
      ch.addReturnListener(r -> returnedIds.add(String.valueOf(r.getProperties().getMessageId())));
      channel = ch;
      channelError = null;
      return ch;
    } catch (IOException | RuntimeException e) {
      abort(ch);
      nextChannelAttempt = now + CHANNEL_RETRY_NANOS;
      channelError = e;
      return null;
    }
  }

  private void discardChannel() {
    Channel ch = channel;
    channel = null;
    abort(ch);
  }

  /** abort, not close: never waits, never throws for a dead channel, and ends its recovery. */
  private void abort(Channel ch) {
    if (ch != null) {
      try {
        ch.abort();
      } catch (IOException e) {
        log.debug("{}: abort of a dead channel failed: {}", name, e.toString());
      }
    }
  }

  private void rejectAll(List<PendingWrite> writes, WriteRejectedException why, Exception cause) {
    noteFailure(cause == null ? why : cause);
    for (PendingWrite w : writes) {
      w.reject(why);
    }
    observer.writesRejected(why, writes.size());
  }

  /** Logs the first failure of a streak only: one line per state change, not per message. */
  private void noteFailure(Exception cause) {
    if (failures.failed()) {
      log.warn(
          "{}: publishing failed, answering 503 until it works again: {}", name, cause.toString());
    }
  }
}
