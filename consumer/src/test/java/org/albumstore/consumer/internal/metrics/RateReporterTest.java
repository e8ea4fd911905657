package org.albumstore.consumer.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.albumstore.consumer.ConsumerCounters;
import org.junit.jupiter.api.Test;

class RateReporterTest {

  @Test
  void lineStatesRatesOverTheIntervalAndAverageBatchSize() {
    ConsumerCounters before = new ConsumerCounters(1_000, 900, 100, 10, 1, 2);
    ConsumerCounters after = new ConsumerCounters(21_000, 20_900, 600, 50, 3, 2);
    String line = RateReporter.line(before, after, 10.0);
    assertThat(line)
        .startsWith("applied 2000 msg/s, 2000 reviews/s, 50 albums/s, avg batch 500.0 msgs")
        .contains("dead-lettered 2, redelivered 0")
        .contains("totals: 21000 msgs, 20900 reviews, 600 albums");
  }

  @Test
  void anIdleIntervalReportsZerosNotNaN() {
    ConsumerCounters same = new ConsumerCounters(5, 5, 0, 1, 0, 0);
    assertThat(RateReporter.line(same, same, 10.0))
        .startsWith("applied 0 msg/s, 0 reviews/s, 0 albums/s, avg batch 0.0 msgs");
  }
}
