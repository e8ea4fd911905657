package org.albumstore.faults.bluegreen;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.embedded.cluster.HaProxy;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The new broker of a blue/green (green): three RabbitMQ nodes of a release of their own ({@link
 * RabbitCluster#start(String, int, Path, String)}) behind a balancer of their own in {@code mode
 * tcp}, started on a thread of its own while the test starts blue, since each cluster's start is
 * most of the test's set-up.
 *
 * <p>Why its own balancer rather than its node addresses in {@code ALBUMSTORE_AMQP_ADDRESSES}: on
 * Amazon MQ the green broker is a broker of its own with an endpoint of its own, so the switch an
 * operator makes is one value, the broker URI, which is what each server's and consumer's restart
 * changes here; and the consumer, the client's drain and the backlog probes each take one URI. The
 * balancer also cuts the sessions of a node it marks down, as blue's does, so both sides fail
 * alike.
 */
public final class GreenBroker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GreenBroker.class);
  private static final int NODES = 3;

  /** Three node starts on a loaded 2-core machine; each is bounded by its own start limit too. */
  private static final Duration START_LIMIT = Duration.ofMinutes(10);

  private record Started(RabbitCluster nodes, HaProxy entry) {}

  private final String release;
  private final CompletableFuture<Started> start;

  private GreenBroker(String release, CompletableFuture<Started> start) {
    this.release = release;
    this.start = start;
  }

  /** Starts the nodes and their balancer under {@code dir} on a thread of its own. */
  public static GreenBroker startInBackground(String release, Path dir) {
    CompletableFuture<Started> start = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                start.complete(start(release, dir));
              } catch (Throwable e) {
                start.completeExceptionally(e);
              }
            },
            "green-broker-start");
    t.setDaemon(true);
    t.start();
    return new GreenBroker(release, start);
  }

  private static Started start(String release, Path dir) throws Exception {
    String prefix = "albumstore-green-" + UUID.randomUUID().toString().substring(0, 8);
    RabbitCluster nodes = RabbitCluster.start(prefix, NODES, dir.resolve("rabbit"), release);
    try {
      HaProxy entry =
          HaProxy.start(dir.resolve("haproxy"), List.of(), List.of(), nodes.amqpPorts());
      log.info("green: RabbitMQ {} on {} behind {}", release, nodes.addresses(), entry.amqpPort());
      return new Started(nodes, entry);
    } catch (Exception e) {
      nodes.close();
      throw e;
    }
  }

  /** The release asked for ({@code installed} or a version). */
  public String release() {
    return release;
  }

  /** Waits for the start; {@code worldAmqp}'s queue at green's entry. */
  public BrokerSide await(AmqpSettings worldAmqp) throws Exception {
    Started s = started();
    String uri = "amqp://guest:guest@127.0.0.1:" + s.entry().amqpPort() + "/%2F";
    AmqpSettings green =
        new AmqpSettings(
            uri,
            "",
            worldAmqp.queue(),
            worldAmqp.queueType(),
            worldAmqp.quorumGroupSize(),
            worldAmqp.partitions());
    return BrokerSide.of("green", s.nodes(), green);
  }

  private Started started() throws Exception {
    try {
      return start.get(START_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** Waits for a start still under way, then stops the balancer and the nodes. */
  @Override
  public void close() throws Exception {
    Started s;
    try {
      s = started();
    } catch (Exception failedStart) {
      return; // nothing runs: a failed start closed what it had started
    }
    try {
      s.entry().close();
    } finally {
      s.nodes().close();
    }
  }
}
