package org.albumstore.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.Test;

class MetricsSettingsTest {
  @Test
  void defaultsAreLocalhostPort9091() {
    MetricsSettings s = MetricsSettings.from(Env.of(Map.of()));
    assertThat(s).isEqualTo(new MetricsSettings(9091, "127.0.0.1"));
    assertThat(s.enabled()).isTrue();
  }

  @Test
  void minusOneTurnsTheEndpointOffAndZeroPicksAFreePort() {
    assertThat(
            MetricsSettings.from(Env.of(Map.of(MetricsSettings.PORT.variable(), "-1"))).enabled())
        .isFalse();
    MetricsSettings any =
        MetricsSettings.from(
            Env.of(
                Map.of(
                    MetricsSettings.PORT.variable(),
                    "0",
                    MetricsSettings.BIND.variable(),
                    "0.0.0.0")));
    assertThat(any.enabled()).isTrue();
    assertThat(any.port()).isZero();
    assertThat(any.bindAddress()).isEqualTo("0.0.0.0");
    assertThat(MetricsSettings.OFF.enabled()).isFalse();
  }

  @Test
  void impossiblePortsAreRefusedNamingTheSetting() {
    assertThatThrownBy(
            () -> MetricsSettings.from(Env.of(Map.of(MetricsSettings.PORT.variable(), "70000"))))
        .hasMessageContaining(MetricsSettings.PORT.variable());
    assertThatThrownBy(() -> new MetricsSettings(-2, "127.0.0.1"))
        .hasMessageContaining(MetricsSettings.PORT.variable());
    assertThatThrownBy(() -> new MetricsSettings(9091, " "))
        .hasMessageContaining(MetricsSettings.BIND.variable());
  }
}
