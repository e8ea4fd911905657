package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.cluster.RabbitNode;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker resource alarm (memory, here) blocks publishing connections: the server hears {@code
 * connection.blocked} and answers writes 503 with Retry-After at once while it lasts, instead of
 * letting each wait the whole confirm timeout (5 s). A write already published when the block began
 * is answered only once its confirm arrives (after the unblock) or its timeout passes, so no 200 is
 * ever given for a write the broker does not hold.
 *
 * <p>The alarm is raised on a RabbitMQ node of this test's own ({@link RabbitNode}: own name, ports
 * and files), never on the machine's shared broker. Needs an installed RabbitMQ: without one it
 * skips with one line, and fails when {@code CI=true}.
 */
class BrokerAlarmIT {
  private static final Logger log = LoggerFactory.getLogger(BrokerAlarmIT.class);

  /** Far below the 5 s confirm timeout, far above any answer that does not wait for the broker. */
  private static final Duration QUICK = Duration.ofSeconds(1);

  private static RabbitNode node;
  private static int port;

  @BeforeAll
  static void startNode() throws Exception {
    ExternalTools.system()
        .requireThat(
            RabbitNode.installation().isPresent(),
            "an installed RabbitMQ (rabbitmq-server and rabbitmqctl in $RABBITMQ_HOME/sbin,"
                + " /usr/lib/rabbitmq/bin or on PATH)",
            "BrokerAlarmIT raises a memory alarm on a RabbitMQ node of its own");
    String id = UUID.randomUUID().toString().substring(0, 8);
    port = RabbitNode.freePort();
    node =
        RabbitNode.builder(
                "albumstore-alarm-" + id, Path.of("target", "broker-alarm-" + id).toAbsolutePath())
            .config("listeners.tcp.1 = 127.0.0.1:" + port)
            .start();
  }

  @AfterAll
  static void stopNode() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void writesDuringAMemoryAlarmAre503AtOnceAndEvery200IsOnTheQueue() throws Exception {
    AmqpSettings amqp =
        new AmqpSettings(
            "amqp://guest:guest@127.0.0.1:" + port + "/%2F",
            "server.alarm." + UUID.randomUUID().toString().substring(0, 8),
            AmqpSettings.QueueType.CLASSIC);
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(
        CommonSettings.HTTP_PORT.variable(),
        "0"); // the default confirm timeout (5 s): what the alarm used to cost
    ConcurrentLinkedQueue<String> ok = new ConcurrentLinkedQueue<>();
    try (AlbumStoreServer server = AlbumStoreServer.start(Env.system().withOverrides(env))) {
      Api api = new Api(server.baseUrl());
      assertThat(post(api, "before", ok).status()).isEqualTo(200);

      node.ctl("set_vm_memory_high_watermark", "0");
      // Published before the server knows of the block: it waits for its confirm.
      CompletableFuture<Api.Reply> inFlight =
          CompletableFuture.supplyAsync(() -> postUnchecked(api, "in-flight", ok));
      awaitBlocked(api, ok);

      // 16 writers for 1.5 s while the alarm lasts: every answer a quick 503 with Retry-After.
      List<Long> millis = new ArrayList<>();
      ExecutorService writers = Executors.newFixedThreadPool(16);
      try {
        List<Future<List<Long>>> done = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
          int writer = t;
          done.add(writers.submit(() -> writeDuringAlarm(api, "w" + writer, ok)));
        }
        for (Future<List<Long>> f : done) {
          millis.addAll(f.get(60, TimeUnit.SECONDS));
        }
      } finally {
        writers.shutdownNow();
      }
      assertThat(millis).isNotEmpty();
      log.info(
          "{} writes during the alarm, slowest answered in {} ms",
          millis.size(),
          millis.stream().mapToLong(Long::longValue).max().orElse(0));

      node.ctl("set_vm_memory_high_watermark", "0.4");
      Api.Reply inFlightReply = inFlight.get(30, TimeUnit.SECONDS);
      log.info("the write in flight when the block began: {}", inFlightReply.status());
      assertThat(inFlightReply.status()).isIn(200, 503);

      // After the alarm: writes succeed again.
      assertThat(eventuallyOk(api, ok)).as("a write succeeds after the alarm").isTrue();
    }

    // Every 200 is on the queue: nothing was answered 200 that the broker does not hold.
    Set<String> queued = new HashSet<>();
    for (WriteBundle b : Queues.take(amqp, 10_000)) {
      b.reviews().stream().map(Review::albumId).forEach(queued::add);
      b.votes().stream().map(AlbumVotes::albumId).forEach(queued::add);
    }
    assertThat(ok).isNotEmpty();
    assertThat(queued).containsAll(ok);
  }

  /** Posts a like for album {@code id}; records it when answered 200. */
  private static Api.Reply post(Api api, String id, ConcurrentLinkedQueue<String> ok)
      throws Exception {
    Api.Reply r = api.post("/review/like/" + id);
    if (r.status() == 200) {
      ok.add(id);
    }
    return r;
  }

  private static Api.Reply postUnchecked(Api api, String id, ConcurrentLinkedQueue<String> ok) {
    try {
      return post(api, id, ok);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean isAlarmRefusal(Api.Reply r) {
    return r.status() == 503
        && "1".equals(r.header("Retry-After"))
        && String.valueOf(r.json().get("msg")).contains("resource alarm");
  }

  /** Posts (bounded, 20 s) until the server answers with the alarm's 503: it knows of the block. */
  private static void awaitBlocked(Api api, ConcurrentLinkedQueue<String> ok) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    for (int n = 0; System.nanoTime() < deadline; n++) {
      if (isAlarmRefusal(post(api, "probe-" + n, ok))) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the server never answered the alarm's 503 within 20 s");
  }

  /** Posts for 1.5 s; asserts each answer is the alarm's 503, quickly; returns the times in ms. */
  private static List<Long> writeDuringAlarm(
      Api api, String writer, ConcurrentLinkedQueue<String> ok) throws Exception {
    List<Long> millis = new ArrayList<>();
    long end = System.nanoTime() + Duration.ofMillis(1500).toNanos();
    for (int n = 0; System.nanoTime() < end; n++) {
      long t0 = System.nanoTime();
      Api.Reply r = post(api, writer + "-" + n, ok);
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertThat(isAlarmRefusal(r)).as("status %d: %s", r.status(), r.body()).isTrue();
      assertThat(ms).as("answered in ms").isLessThan(QUICK.toMillis());
      millis.add(ms);
    }
    return millis;
  }

  /** Bounded (15 s): the first 200 after the alarm cleared. */
  private static boolean eventuallyOk(Api api, ConcurrentLinkedQueue<String> ok) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    for (int n = 0; System.nanoTime() < deadline; n++) {
      if (post(api, "after-" + n, ok).status() == 200) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }
}
