package org.albumstore.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Address;
import java.util.List;
import java.util.Map;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AmqpSettingsTest {

  @Test
  void withoutAddressesTheUrisHostAndPortAreTheOnlyAddress() {
    AmqpSettings s =
        AmqpSettings.from(
            Env.of(Map.of(CommonSettings.AMQP_URI.variable(), "amqp://u:p@mq.local:5673/v")));
    assertThat(s.addressList()).containsExactly(new Address("mq.local", 5673));
  }

  @Test
  void withoutPortTheSchemesDefaultPortIsUsed() {
    assertThat(
            AmqpSettings.from(
                    Env.of(Map.of(CommonSettings.AMQP_URI.variable(), "amqps://u:p@mq/v")))
                .addressList())
        .containsExactly(new Address("mq", 5671));
    assertThat(
            AmqpSettings.from(Env.of(Map.of(CommonSettings.AMQP_URI.variable(), "amqp://u:p@mq/v")))
                .addressList())
        .containsExactly(new Address("mq", 5672));
  }

  @Test
  void addressesReplaceTheUrisHostAndKeepItsCredentials() {
    AmqpSettings s =
        AmqpSettings.from(
            Env.of(
                Map.of(
                    CommonSettings.AMQP_URI.variable(),
                    "amqp://u:secret@127.0.0.1:5672/%2F",
                    CommonSettings.AMQP_ADDRESSES.variable(),
                    " 127.0.0.1:5701, 127.0.0.1:5702,127.0.0.1:5703 ")));
    assertThat(s.addressList())
        .containsExactly(
            new Address("127.0.0.1", 5701),
            new Address("127.0.0.1", 5702),
            new Address("127.0.0.1", 5703));
    assertThat(s.uri()).isEqualTo("amqp://u:secret@127.0.0.1:5672/%2F");
    assertThat(s.toString()).contains("127.0.0.1:5702").doesNotContain("secret");
    assertThat(s.withQueue("other").addresses()).isEqualTo(s.addresses());
  }

  @Test
  void aMalformedAddressListNamesTheSetting() {
    assertThatThrownBy(
            () ->
                AmqpSettings.from(
                    Env.of(
                        Map.of(
                            CommonSettings.AMQP_ADDRESSES.variable(),
                            "127.0.0.1:5701,127.0.0.1:port"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(CommonSettings.AMQP_ADDRESSES.variable())
        .hasMessageContaining("127.0.0.1:port");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "33", "three"})
  void aPartitionCountOutsideOneToTheMaximumIsRefusedInOneLineNamingTheSetting(String value) {
    assertThatThrownBy(
            () ->
                AmqpSettings.from(
                    Env.of(Map.of(CommonSettings.QUEUE_PARTITIONS.variable(), value))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(CommonSettings.QUEUE_PARTITIONS.variable())
        .hasMessageNotContaining("\n");
    assertThatThrownBy(() -> new AmqpSettings("amqp://h", "", "q", QueueType.QUORUM, 0, 0))
        .hasMessage(
            CommonSettings.QUEUE_PARTITIONS.variable() + " must be between 1 and 32, was 0");
  }

  @Test
  void partitionZeroIsTheQueueItselfAndTheOthersAreNumberedBesideIt() {
    AmqpSettings s =
        AmqpSettings.from(
            Env.of(
                Map.of(
                    CommonSettings.QUEUE.variable(),
                    "w",
                    CommonSettings.QUEUE_PARTITIONS.variable(),
                    "3")));
    assertThat(s.partitions()).isEqualTo(3);
    assertThat(s.partitionList())
        .containsExactly(
            new AmqpSettings.Partition(0, "w"),
            new AmqpSettings.Partition(1, "w.1"),
            new AmqpSettings.Partition(2, "w.2"));
    AmqpSettings.Partition second = s.partition(2);
    assertThat(List.of(second.exchange(), second.deadLetterExchange(), second.deadLetterQueue()))
        .containsExactly("w.2", "w.2.dlx", "w.2.dlq");
    assertThat(List.of(s.exchange(), s.deadLetterQueue(), s.commitsExchange()))
        .containsExactly("w", "w.dlq", "w.commits");
    assertThat(s.asVariables()).containsEntry(CommonSettings.QUEUE_PARTITIONS.variable(), "3");
    assertThat(AmqpSettings.from(Env.of(Map.of())).partitionList())
        .containsExactly(new AmqpSettings.Partition(0, "albumstore.writes"));
    assertThat(s.withQueue("x").withAddresses("127.0.0.1:1").partitions()).isEqualTo(3);
  }
}
