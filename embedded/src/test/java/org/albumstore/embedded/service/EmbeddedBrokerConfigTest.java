package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The broker configuration's promises that no integration test would notice being broken. */
class EmbeddedBrokerConfigTest {
  @SuppressWarnings("unchecked")
  private static Map<String, Object> onlyPort() {
    List<Map<String, Object>> ports =
        (List<Map<String, Object>>) EmbeddedBroker.config().get("ports");
    assertThat(ports).hasSize(1);
    return ports.get(0);
  }

  @Test
  void amqpPortIsChosenByTheKernelOnLoopbackOnly() {
    assertThat(onlyPort())
        .containsEntry("port", 0) // ephemeral range: never RabbitMQ's 25672
        .containsEntry("bindingAddress", "127.0.0.1")
        .containsEntry("protocols", List.of("AMQP_0_9_1", "AMQP_0_9", "AMQP_0_8"));
  }

  @Test
  void noManagementPortOrPluginIsConfigured() {
    assertThat(EmbeddedBroker.config()).doesNotContainKey("plugins");
  }

  @Test
  void uriUsesTheDefaultVirtualHostAsRabbitMqSpellsIt() {
    assertThat(EmbeddedBroker.config().get("virtualhostnodes").toString()).contains("name=/");
  }
}
