import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.util.List;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;

/**
 * Fills a queue with N single-review messages exactly as the server publishes them under light
 * load (one review per persistent message, publisher confirms), for the drain benchmark.
 *
 * <p>{@code java -cp consumer/target/albumstore-consumer.jar bench/java/FillQueue.java QUEUE N
 * [ALBUMS=1000]}; broker from ALBUMSTORE_AMQP_URI (default local). Prints "published N in S s".
 */
public final class FillQueue {
  public static void main(String[] args) throws Exception {
    String queue = args[0];
    int n = Integer.parseInt(args[1]);
    int albums = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    AmqpSettings amqp = AmqpSettings.from(Env.system()).withQueue(queue);
    int threads = 4; // four confirm channels in parallel: filling is setup, not what is measured
    long t0 = System.nanoTime();
    try (Connection c = AmqpConnections.open(amqp, "bench-fill")) {
      try (Channel ch = c.createChannel()) {
        Topology.declare(ch, amqp);
      }
      java.util.List<Thread> workers = new java.util.ArrayList<>();
      java.util.concurrent.atomic.AtomicReference<Exception> failure =
          new java.util.concurrent.atomic.AtomicReference<>();
      for (int t = 0; t < threads; t++) {
        int from = (int) ((long) n * t / threads);
        int to = (int) ((long) n * (t + 1) / threads);
        Thread w =
            new Thread(
                () -> {
                  try {
                    publish(c, amqp, from, to, albums);
                  } catch (Exception e) {
                    failure.compareAndSet(null, e);
                  }
                });
        w.start();
        workers.add(w);
      }
      for (Thread w : workers) {
        w.join();
      }
      if (failure.get() != null) {
        throw failure.get();
      }
    }
    System.out.printf("published %d in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
  }

  private static void publish(Connection c, AmqpSettings amqp, int from, int to, int albums)
      throws Exception {
    try (Channel ch = c.createChannel()) {
      ch.confirmSelect();
      for (int i = from; i < to; i++) {
        Vote vote = i % 3 == 2 ? Vote.DISLIKE : Vote.LIKE;
        WriteBundle b =
            new WriteBundle(
                EventCodec.VERSION,
                System.currentTimeMillis(),
                List.of(),
                List.of(new Review(UUID.randomUUID(), "bench-" + (i % albums), vote)));
        ch.basicPublish(
            amqp.exchange(), Topology.ROUTING_KEY, EventCodec.properties(b), EventCodec.encode(b));
        if ((i - from + 1) % 2000 == 0) {
          ch.waitForConfirmsOrDie(120_000);
        }
      }
      ch.waitForConfirmsOrDie(120_000);
    }
  }
}
