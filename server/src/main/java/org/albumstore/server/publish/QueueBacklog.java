package org.albumstore.server.publish;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.albumstore.server.read.Backlog;

/**
 * The write queue as the {@link Backlog}: writes may be unapplied while the queue holds ready
 * messages (a consumer down, cut off or behind), or while the broker cannot be asked. One passive
 * declare on a short-lived channel of the publishing connection answers, at most every {@value
 * #FRESH_MS} ms and within {@value #TIMEOUT_MS} ms, on a thread of its own: a broker that does not
 * answer (a paused node) never holds the caller longer than that.
 *
 * <p>What it cannot see: messages delivered to a consumer and not yet acknowledged are not counted
 * by a passive declare. A consumer that dies gives them back at once (its connection closes); one
 * that hangs with them is the case this misses.
 */
public final class QueueBacklog implements Backlog, AutoCloseable {
  static final long FRESH_MS = 250;
  static final long TIMEOUT_MS = 1000;

  private final BrokerConnector broker;
  private final ExecutorService probe =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "albumstore-backlog-probe");
            t.setDaemon(true);
            return t;
          });
  private Future<Boolean> last;
  private long lastAskedNanos;

  public QueueBacklog(BrokerConnector broker) {
    this.broker = broker;
  }

  @Override
  public synchronized boolean mayHoldUnappliedWrites() {
    long now = System.nanoTime();
    if (last == null || (last.isDone() && now - lastAskedNanos > FRESH_MS * 1_000_000)) {
      last = probe.submit(this::readyMessagesWait);
      lastAskedNanos = now;
    }
    try {
      return last.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    } catch (ExecutionException | TimeoutException e) {
      return true;
    }
  }

  private boolean readyMessagesWait() throws Exception {
    Connection c = broker.connection();
    if (c == null || !c.isOpen()) {
      return true;
    }
    try (Channel ch = c.createChannel()) {
      AMQP.Queue.DeclareOk ok = ch.queueDeclarePassive(broker.settings().queue());
      return ok.getMessageCount() > 0;
    }
  }

  @Override
  public void close() {
    probe.shutdownNow();
  }
}
