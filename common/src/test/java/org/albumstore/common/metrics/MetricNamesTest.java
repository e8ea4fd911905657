package org.albumstore.common.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusNamingConvention;
import org.junit.jupiter.api.Test;

class MetricNamesTest {
  private final PrometheusNamingConvention prometheus = new PrometheusNamingConvention();

  @Test
  void theClientsPrometheusNamesAreMicrometersOwn() {
    for (String name :
        new String[] {
          MetricNames.HTTP_REQUESTS,
          MetricNames.SERVER_STAGE,
          MetricNames.CONSUMER_STAGE,
          MetricNames.VISIBILITY
        }) {
      assertThat(MetricNames.prometheusTimer(name))
          .isEqualTo(prometheus.name(name, Meter.Type.TIMER, "seconds"));
    }
    assertThat(MetricNames.prometheusTimer(MetricNames.SERVER_STAGE))
        .isEqualTo("albumstore_write_stage_seconds");
  }

  @Test
  void stageTagsAreTheDocumentedLowerCaseWords() {
    assertThat(ServerStage.CHANNEL_WAIT.tag()).isEqualTo("channel_wait");
    assertThat(ConsumerStage.BATCH_WAIT.tag()).isEqualTo("batch_wait");
  }
}
