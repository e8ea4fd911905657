package org.albumstore.consumer;

import static org.albumstore.consumer.Fixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * How fast the consumer drains a full queue of single-review messages: publish N, start the
 * consumer, time until every message is applied and acknowledged. One run per connection count.
 *
 * <p>Not part of {@code mvn verify} (the name matches neither *Test nor *IT) and it asserts no
 * timing, only that the counts end exact. Run it with:
 *
 * <pre>
 * mvn -B -pl consumer verify -Dit.test=ConsumerDrainBench \
 *     -Dbench.messages=200000 -Dbench.connections=1,2 -Dbench.channels=2
 * </pre>
 *
 * Prefetch, batch size and wait are the consumer defaults unless -Dbench.prefetch,
 * -Dbench.batchSize, -Dbench.batchWaitMs are given.
 */
class ConsumerDrainBench {
  private static final int ALBUMS = 100;

  @Test
  void drainRate() throws Exception {
    int messages = Integer.getInteger("bench.messages", 200_000);
    int channels = Integer.getInteger("bench.channels", ConsumerSettings.CHANNELS.defaultValue());
    int prefetch = Integer.getInteger("bench.prefetch", ConsumerSettings.PREFETCH.defaultValue());
    int batch = Integer.getInteger("bench.batchSize", ConsumerSettings.BATCH_SIZE.defaultValue());
    int waitMs =
        Integer.getInteger("bench.batchWaitMs", ConsumerSettings.BATCH_WAIT_MS.defaultValue());
    int backlogWaitMs =
        Integer.getInteger("bench.backlogWaitMs", ConsumerSettings.BACKLOG_WAIT_MS.defaultValue());
    List<Integer> connectionCounts =
        Arrays.stream(System.getProperty("bench.connections", "1,2").split(","))
            .map(String::trim)
            .map(Integer::valueOf)
            .toList();

    List<String> lines = new ArrayList<>();
    for (int connections : connectionCounts) {
      try (Fixture f = Fixture.create("drain-bench-" + connections)) {
        long p0 = System.nanoTime();
        f.publishLikes(messages, ALBUMS, 2_000);
        double publishSeconds = (System.nanoTime() - p0) / 1e9;

        ConsumerSettings s =
            new ConsumerSettings(
                connections,
                channels,
                prefetch,
                batch,
                waitMs,
                backlogWaitMs,
                connections * channels,
                false,
                5);
        long t0 = System.nanoTime();
        try (AlbumStoreConsumer consumer = AlbumStoreConsumer.start(s, f.amqp, f.db)) {
          await(
              "all applied",
              Duration.ofMinutes(10),
              () -> consumer.counters().messagesApplied() >= messages);
          double seconds = (System.nanoTime() - t0) / 1e9;
          ConsumerCounters c = consumer.counters();
          await("queue drained", Duration.ofSeconds(60), () -> f.ready() == 0);
          assertThat(f.totalReviews()).isEqualTo(messages);
          lines.add(
              String.format(
                  Locale.ROOT,
                  "connections=%d channels=%d prefetch=%d batch=%d wait=%dms backlog wait=%dms:"
                      + " %d msgs in %.2f s = %.0f msgs/s (avg batch %.1f; published at %.0f"
                      + " msgs/s)",
                  connections,
                  channels,
                  prefetch,
                  batch,
                  waitMs,
                  backlogWaitMs,
                  messages,
                  seconds,
                  messages / seconds,
                  (double) c.messagesApplied() / c.transactions(),
                  messages / publishSeconds));
        }
      }
    }
    System.out.println("=== consumer drain benchmark ===");
    lines.forEach(System.out::println);
  }
}
