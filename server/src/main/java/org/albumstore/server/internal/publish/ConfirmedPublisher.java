package org.albumstore.server.internal.publish;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path's entry point: servlets {@link #submit} a write and get a future that completes
 * when the broker confirmed it (see {@link PublisherWorker} for why that holds under group commit).
 *
 * <p>A bounded queue decouples request threads from the broker: submitting never blocks. When the
 * queue is full the write is refused at once (503), so overload sheds load quickly instead of
 * piling up requests whose clients time out anyway. For the same reason a write is refused at once
 * while the broker blocks publishing (a memory or disk alarm, {@link BrokerConnector#isBlocked}). A
 * fixed set of publisher threads, each owning one channel, drains the queue: a bounded pool of
 * channels, never one per request and never one shared by two publishers. The {@link Bundler}
 * decides how many of them have a message in flight: one, unless full bundles are waiting.
 */
public final class ConfirmedPublisher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConfirmedPublisher.class);

  private final BlockingQueue<PendingWrite> queue;
  private final Bundler bundler;
  private final BrokerConnector broker;
  private final PublishObserver observer;
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicBoolean shedding = new AtomicBoolean();
  private final LongAdder shed = new LongAdder();
  private volatile boolean accepting = true;
  private volatile boolean stopping;

  /**
   * @param observer told about every confirmed message and write, and every refused write (the
   *     server's metrics)
   */
  public ConfirmedPublisher(BrokerConnector broker, PublisherSettings s, PublishObserver observer) {
    this.queue = new LinkedBlockingQueue<>(s.queueMax());
    this.bundler = new Bundler(queue, s.bundleMax(), s.bundleBytes());
    this.broker = broker;
    this.observer = observer;
    for (int i = 0; i < s.channels(); i++) {
      String name = "albumstore-publisher-" + i;
      PublisherWorker worker =
          new PublisherWorker(
              name,
              i,
              bundler,
              broker,
              s.confirmTimeoutMs(),
              s.messageVersion(),
              () -> stopping,
              observer);
      Thread t = new Thread(worker, name);
      t.setDaemon(true); // close() stops them; daemon only so a forgotten close cannot hang a JVM
      threads.add(t);
    }
  }

  public void start() {
    threads.forEach(Thread::start);
    log.info("Publisher started: {} channels", threads.size());
  }

  public CompletableFuture<Void> submit(NewAlbum album) {
    return enqueue(PendingWrite.of(album, System.nanoTime()));
  }

  public CompletableFuture<Void> submit(Review review) {
    return enqueue(PendingWrite.of(review, System.nanoTime()));
  }

  private CompletableFuture<Void> enqueue(PendingWrite w) {
    if (!accepting) {
      reject(w, Rejections.SHUTTING_DOWN);
    } else if (broker.isBlocked()) {
      // A resource alarm: a publish now would wait the whole confirm timeout; answer at once.
      reject(w, Rejections.BROKER_BLOCKED);
    } else if (!queue.offer(w)) {
      shed.increment();
      if (shedding.compareAndSet(false, true)) {
        log.warn("Publish queue full ({} writes): answering 503 to new writes", queue.size());
      }
      reject(w, Rejections.OVERLOADED);
    } else if (shedding.get() && shedding.compareAndSet(true, false)) {
      log.info("Publish queue accepting again after {} writes were refused", shed.sumThenReset());
    }
    return w.done();
  }

  private void reject(PendingWrite w, WriteRejectedException why) {
    w.reject(why);
    observer.writesRejected(why, 1);
  }

  /** The {@code reason} of every way a write can be refused, e.g. {@code overloaded}. */
  public static List<String> rejectionReasons() {
    return Rejections.ALL.stream().map(WriteRejectedException::reason).toList();
  }

  /** True while the broker blocks publishing (a resource alarm: connection.blocked). */
  public boolean brokerBlocked() {
    return broker.isBlocked();
  }

  /** Writes waiting for a publisher thread. */
  public int queued() {
    return queue.size();
  }

  /** Publisher threads, i.e. the size of the channel pool. */
  public int channels() {
    return threads.size();
  }

  /** Publisher threads busy with a bundle (publishing it or awaiting its confirm): in flight. */
  public int channelsInUse() {
    return bundler.inFlight();
  }

  /**
   * Refuses new writes, lets the threads publish what is queued, and waits at most {@code timeout};
   * then interrupts them and fails what is left, so every future completes.
   */
  public void close(Duration timeout) {
    accepting = false;
    stopping = true;
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    for (Thread t : threads) {
      try {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    for (Thread t : threads) {
      if (t.isAlive()) {
        log.warn("{} still publishing after {}; interrupting it", t.getName(), timeout);
        t.interrupt();
        try {
          t.join(1000);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    List<PendingWrite> left = bundler.drain();
    left.forEach(w -> w.reject(Rejections.SHUTTING_DOWN));
    observer.writesRejected(Rejections.SHUTTING_DOWN, left.size());
    log.info(
        "Publisher stopped{}", left.isEmpty() ? "" : "; " + left.size() + " queued writes refused");
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }
}
