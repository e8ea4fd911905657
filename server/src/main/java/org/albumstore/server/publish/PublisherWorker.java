package org.albumstore.server.publish;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.RandomUuids;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.WriteBundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One publisher thread and the one confirm-mode channel it owns (a channel is never used by two
 * threads, which the client library requires for confirms to mean anything per publisher).
 *
 * <p>Loop: take the oldest waiting write, bundle it with whatever else is waiting ({@link
 * BundleGrouper}), publish the bundle as ONE persistent message with {@code mandatory=true}, wait
 * for that message's confirm, then complete every write of the bundle at once.
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
 * commit already amortises the round trip: while one message waits, the next bundle accumulates,
 * and N channels keep N messages in flight.
 */
final class PublisherWorker implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(PublisherWorker.class);
  private static final long POLL_MS = 100;
  private static final long CHANNEL_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final String name;
  private final BlockingQueue<PendingWrite> queue;
  private final BrokerConnector broker;
  private final BundleGrouper grouper;
  private final int confirmTimeoutMs;
  private final long maxWaitNanos;
  private final ConfirmedPublisher owner;
  private final PublishObserver observer;
  private final Set<String> returnedIds = ConcurrentHashMap.newKeySet();

  private Channel channel;
  private long nextChannelAttempt = System.nanoTime();
  private Exception channelError;
  private long failedMessages;

  PublisherWorker(
      String name,
      BlockingQueue<PendingWrite> queue,
      BrokerConnector broker,
      BundleGrouper grouper,
      int confirmTimeoutMs,
      ConfirmedPublisher owner,
      PublishObserver observer) {
    this.name = name;
    this.queue = queue;
    this.broker = broker;
    this.grouper = grouper;
    this.confirmTimeoutMs = confirmTimeoutMs;
    this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(confirmTimeoutMs);
    this.owner = owner;
    this.observer = observer;
  }

  @Override
  public void run() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        PendingWrite first = grouper.takeCarried();
        if (first == null) {
          if (owner.isStopping() && queue.isEmpty()) {
            break; // drained after close(): nothing left that could still be confirmed
          }
          first = queue.poll(POLL_MS, TimeUnit.MILLISECONDS);
          if (first == null) {
            continue;
          }
        }
        List<PendingWrite> bundle = grouper.group(first, queue::poll);
        owner.channelTaken();
        try {
          publish(bundle);
        } catch (RuntimeException e) {
          // A bug, not a broker state: fail this bundle (completing a completed future is a
          // no-op) and keep the thread, so the pool never silently shrinks.
          log.error("{}: publishing {} writes failed unexpectedly", name, bundle.size(), e);
          rejectAll(bundle, Rejections.NOT_CONFIRMED, e);
          discardChannel();
        } finally {
          owner.channelReleased();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      PendingWrite carried = grouper.takeCarried();
      if (carried != null) {
        carried.reject(Rejections.SHUTTING_DOWN);
      }
      discardChannel();
    }
  }

  private void publish(List<PendingWrite> bundle) throws InterruptedException {
    long now = System.nanoTime();
    List<PendingWrite> live = new ArrayList<>(bundle.size());
    for (PendingWrite w : bundle) {
      if (now - w.enqueuedNanos() > maxWaitNanos) {
        w.reject(Rejections.WAITED_TOO_LONG); // its client is about to give up; don't publish
      } else {
        live.add(w);
      }
    }
    if (live.isEmpty()) {
      return;
    }
    if (broker.isBlocked()) {
      // Queued before the block began: publishing now would only wait for the confirm timeout.
      // Writes already published keep waiting for their confirm, which arrives after the unblock.
      rejectAll(live, Rejections.BROKER_BLOCKED, null);
      return;
    }
    Channel ch = channel();
    if (ch == null) {
      rejectAll(live, Rejections.BROKER_UNAVAILABLE, channelError);
      return;
    }
    WriteBundle message = toBundle(live);
    AMQP.BasicProperties props = EventCodec.properties(message);
    byte[] body = EventCodec.encode(message);
    returnedIds.clear();
    long confirmedNanos;
    try {
      ch.basicPublish(broker.settings().exchange(), Topology.ROUTING_KEY, true, props, body);
      ch.waitForConfirmsOrDie(confirmTimeoutMs);
      confirmedNanos = System.nanoTime();
    } catch (InterruptedException e) {
      rejectAll(live, Rejections.SHUTTING_DOWN, null);
      throw e;
    } catch (TimeoutException | IOException | RuntimeException e) {
      // Timeout or nack (waitForConfirmsOrDie closed the channel), or the channel or connection
      // closed (ShutdownSignal/AlreadyClosed). Either way the channel may still count this
      // message as outstanding, so it is replaced rather than reused.
      // A returned message explains a nack best: Qpid Broker-J (the embedded broker) answers an
      // unroutable mandatory message with basic.return and a nack, where RabbitMQ acks it.
      WriteRejectedException why =
          returnedIds.remove(props.getMessageId())
              ? Rejections.UNROUTABLE
              : ch.isOpen() ? Rejections.NOT_CONFIRMED : Rejections.BROKER_UNAVAILABLE;
      rejectAll(live, why, e);
      discardChannel();
      return;
    }
    if (returnedIds.remove(props.getMessageId())) {
      rejectAll(live, Rejections.UNROUTABLE, null);
      return;
    }
    if (failedMessages > 0) {
      log.info("{}: publishing confirmed again after {} failed messages", name, failedMessages);
      failedMessages = 0;
    }
    observer.messageConfirmed(live.size(), now, confirmedNanos);
    for (PendingWrite w : live) {
      w.confirmed(); // runs the callback that answers the request, on this thread
      observer.writeAnswered(w, now, confirmedNanos, System.nanoTime());
    }
  }

  private static WriteBundle toBundle(List<PendingWrite> writes) {
    List<NewAlbum> albums = new ArrayList<>();
    List<Review> reviews = new ArrayList<>(writes.size());
    for (PendingWrite w : writes) {
      if (w.album() != null) {
        albums.add(w.album());
      } else {
        reviews.add(w.review());
      }
    }
    // A fresh message ID: the consumer's ledger key for the unkeyed reviews of this message.
    // Time-ordered (v7), so that the ledger's primary-key inserts land near the right edge of the
    // index instead of all over it.
    long now = System.currentTimeMillis();
    return new WriteBundle(EventCodec.VERSION, now, RandomUuids.timeOrdered(now), albums, reviews);
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
  }

  /** Logs the first failure of a streak only: one line per state change, not per message. */
  private void noteFailure(Exception cause) {
    if (failedMessages++ == 0) {
      log.warn(
          "{}: publishing failed, answering 503 until it works again: {}", name, cause.toString());
    }
  }
}
