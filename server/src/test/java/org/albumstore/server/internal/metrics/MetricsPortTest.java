package org.albumstore.server.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.albumstore.common.config.Env;
import org.junit.jupiter.api.Test;

class MetricsPortTest {
  @Test
  void byDefaultTheMetricsAnswerOnEveryPort() {
    MetricsPort m = MetricsPort.from(Env.of(Map.of()));
    assertThat(m.separate()).isFalse();
    assertThat(m.answersOn(8080)).isTrue();
    assertThat(m.address()).isEqualTo("127.0.0.1");
  }

  @Test
  void aManagementPortIsTheOnlyOneThatAnswers() {
    MetricsPort m = MetricsPort.from(Env.of(Map.of(MetricsPort.PORT.variable(), "9090")));
    assertThat(m.separate()).isTrue();
    assertThat(m.answersOn(9090)).isTrue();
    assertThat(m.answersOn(8080)).isFalse();
  }

  @Test
  void settingsRoundTripThroughTheirVariables() {
    MetricsPort m = new MetricsPort(9090, "0.0.0.0");
    assertThat(MetricsPort.from(Env.of(m.asVariables()))).isEqualTo(m);
  }

  @Test
  void aPortOutOfRangeIsRefusedWithItsName() {
    assertThatThrownBy(() -> MetricsPort.from(Env.of(Map.of(MetricsPort.PORT.variable(), "70000"))))
        .hasMessageContaining(MetricsPort.PORT.variable());
  }
}
