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
  void theClientsOwnNamesCarryTheirUnitsInPrometheus() {
    assertThat(prometheus.name(MetricNames.CLIENT_REQUESTS, Meter.Type.TIMER, "seconds"))
        .isEqualTo("albumstore_client_requests_seconds");
    // The exposition appends _total to a counter (the client's test reads it so).
    assertThat(prometheus.name(MetricNames.CLIENT_FINISHED, Meter.Type.COUNTER))
        .isEqualTo("albumstore_client_requests_finished");
    assertThat(prometheus.name(MetricNames.CLIENT_IN_FLIGHT, Meter.Type.GAUGE))
        .isEqualTo("albumstore_client_in_flight_requests");
    assertThat(prometheus.name(MetricNames.CLIENT_QUEUE_DEPTH, Meter.Type.GAUGE))
        .isEqualTo("albumstore_client_queue_depth_messages");
    assertThat(prometheus.name(MetricNames.CLIENT_PHASE, Meter.Type.GAUGE))
        .isEqualTo("albumstore_client_run_phase");
  }

  @Test
  void stageTagsAreTheDocumentedLowerCaseWords() {
    assertThat(ServerStage.CHANNEL_WAIT.tag()).isEqualTo("channel_wait");
    assertThat(ConsumerStage.BATCH_WAIT.tag()).isEqualTo("batch_wait");
  }
}
