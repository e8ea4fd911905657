package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.Finish;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.PoisonMessages;
import org.albumstore.faults.harness.PoisonMessages.Poison;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

/**
 * Scenario 5: while a load runs through the server, messages that can never be applied
 * (undecodable, of an unknown version, with impossible values) are published straight to the write
 * queue, each followed by a good one. Every poison message ends in the dead-letter queue, once,
 * with its reason; nothing good does; the good ones, the load's and the direct ones, are applied
 * exactly (audit).
 */
class PoisonMessageIT {
  private static final int ROUNDS = 2;

  @Test
  void poisonMessagesAreDeadLetteredWithTheirReasonAndEverythingAroundThemIsApplied()
      throws Exception {
    try (Stack stack = Stack.create("s5-poison")) {
      stack.startServer(Map.of());
      stack.startConsumer();
      List<Poison> kinds = PoisonMessages.all();
      Map<String, Poison> sent = new HashMap<>();
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 32, Timeout.ofSeconds(15));
          Connection c = AmqpConnections.open(stack.amqp, "faults-poisoner");
          Channel ch = c.createChannel()) {
        ch.confirmSelect();
        WriteLoad load =
            new WriteLoad(api, stack.runId, 16, 30, 100, Duration.ofSeconds(60), null).start();
        try {
          load.awaitAcked(load.plannedWrites() / 10, Duration.ofSeconds(60));
          boolean midRun = !load.isDone();
          for (int round = 0; round < ROUNDS; round++) {
            for (Poison p : kinds) {
              String id = "poison-" + p.kind() + "-" + round;
              publish(ch, stack, p.body(), props(id));
              sent.put(id, p);
              // A good message right behind it, on an album of its own, acknowledged by the
              // confirm.
              String album = stack.runId + "-direct-" + p.kind() + "-" + round;
              WriteBundle good =
                  Bundles.reviews(List.of(new Review(UUID.randomUUID(), album, Vote.DISLIKE)));
              publish(ch, stack, EventCodec.encode(good), EventCodec.properties(good));
              load.acknowledged().album(album).reviewAcked(Vote.DISLIKE);
              Thread.sleep(30);
            }
          }
          load.awaitDone(Duration.ofSeconds(120));

          Finish.Outcome end = Finish.drainStopAndAudit(stack, load.acknowledged(), sent.size());
          Map<String, String> reasons = new HashMap<>();
          List<String> wrongBodies = new ArrayList<>();
          GetResponse r;
          while ((r = ch.basicGet(stack.amqp.deadLetterQueue(), false)) != null) {
            String id = r.getProps().getMessageId();
            Object reason =
                r.getProps().getHeaders() == null
                    ? null
                    : r.getProps().getHeaders().get(Topology.REASON_HEADER);
            reasons.put(id, String.valueOf(reason));
            if (sent.containsKey(id)
                && !java.util.Arrays.equals(sent.get(id).body(), r.getBody())) {
              wrongBodies.add(id);
            }
          }
          Summary.record(
              Summary.loadLine(
                  "scenario 5 (" + sent.size() + " poison messages among the load)",
                  load.stats(),
                  end.redeliveries(),
                  end.audit(),
                  "direct good messages "
                      + sent.size()
                      + ", dead-lettered by the consumer "
                      + stack.deadLettered()
                      + ", in the dead-letter queue "
                      + reasons.size()));

          assertThat(midRun).as("the poison arrived while the load was running").isTrue();
          assertThat(reasons.keySet())
              .as("messages in the dead-letter queue")
              .isEqualTo(sent.keySet());
          sent.forEach(
              (id, p) ->
                  assertThat(reasons.get(id))
                      .as("reason of " + id)
                      .isNotBlank()
                      .contains(p.reasonContains()));
          assertThat(wrongBodies).as("dead letters whose body changed").isEmpty();
          assertThat(stack.deadLettered()).isEqualTo(sent.size());
          LoadChecks.assertClean(load.stats());
          assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
          assertThat(end.cleanStop()).as(end.stopDescription()).isTrue();
        } finally {
          load.interrupt();
        }
      }
    }
  }

  private static AMQP.BasicProperties props(String messageId) {
    return new AMQP.BasicProperties.Builder()
        .deliveryMode(2)
        .contentType(EventCodec.CONTENT_TYPE)
        .messageId(messageId)
        .build();
  }

  private static void publish(Channel ch, Stack stack, byte[] body, AMQP.BasicProperties props)
      throws Exception {
    ch.basicPublish(stack.amqp.exchange(), Topology.ROUTING_KEY, props, body);
    ch.waitForConfirmsOrDie(10_000);
  }
}
