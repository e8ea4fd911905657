package org.albumstore.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Address;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
