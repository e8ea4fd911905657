package org.albumstore.consumer.internal.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import java.util.List;
import java.util.Map;
import org.albumstore.common.amqp.Topology;
import org.junit.jupiter.api.Test;

/** What a redriven copy carries, and what reason a run reports for it. */
class DeadLetterRedriveTest {
  private static AMQP.BasicProperties props(Map<String, Object> headers) {
    return new AMQP.BasicProperties.Builder().messageId("m1").headers(headers).build();
  }

  @Test
  void theConsumersReasonWinsElseTheBrokersIsReported() {
    assertThat(DeadLetterRedrive.reason(props(Map.of(Topology.REASON_HEADER, "invalid message"))))
        .isEqualTo("invalid message");
    assertThat(DeadLetterRedrive.reason(props(Map.of("x-first-death-reason", "delivery_limit"))))
        .isEqualTo("broker: delivery_limit");
    assertThat(DeadLetterRedrive.reason(props(null))).isEqualTo("(no reason header)");
  }

  @Test
  void aCopyStartsAfreshWithoutTheReasonAndTheBrokersHeadersAndKeepsTheRest() {
    AMQP.BasicProperties dead =
        props(
            Map.of(
                Topology.REASON_HEADER,
                "r",
                "x-death",
                List.of(Map.of("reason", "delivery_limit", "count", 1L)),
                "x-first-death-reason",
                "delivery_limit",
                "x-first-death-queue",
                "q",
                "x-last-death-reason",
                "delivery_limit",
                "x-delivery-count",
                21L,
                "albumstore-version",
                2));

    AMQP.BasicProperties copy = DeadLetterRedrive.copy(dead, "run-1");

    assertThat(copy.getHeaders())
        .containsOnlyKeys("albumstore-version", DeadLetterRedrive.RUN_HEADER)
        .containsEntry(DeadLetterRedrive.RUN_HEADER, "run-1");
    assertThat(copy.getMessageId()).isEqualTo("m1");
  }
}
