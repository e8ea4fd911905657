package org.albumstore.client.internal.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TierCalculatorTest {
  /** {@code n} samples of {@code ms} each (one bucket just above them). */
  private static Histogram ms(double ms, long n) {
    TreeMap<Double, Double> b = new TreeMap<>();
    b.put(ms / 2000.0, 0.0);
    b.put(ms / 1000.0, (double) n);
    b.put(Double.POSITIVE_INFINITY, (double) n);
    return new Histogram(n, ms / 1000.0 * n, b);
  }

  private static TierReadings readings() {
    return new TierReadings(
        "http://s/metrics",
        "http://c/metrics",
        ms(9.0, 1000),
        Map.of(
            "arrival", ms(1.0, 1000),
            "validate", ms(0.5, 1000),
            "channel_wait", ms(2.0, 1000),
            "confirm", ms(5.0, 1000),
            "respond", ms(1.0, 1000),
            "complete", ms(0.3, 1000)),
        Map.of(
            "queue", ms(3.0, 1000),
            "batch_wait", ms(6.0, 1000),
            "apply", ms(4.0, 1000),
            "commit", ms(2.0, 1000)),
        ms(15.5, 1000),
        List.of());
  }

  @Test
  void everyRequestPathStageIsMeasuredAndOnlyTheRemainderIsDerived() {
    TierTable t = TierCalculator.table(readings(), 10.0, 30.0, 1000);

    List<TierTable.Row> path = t.requestPath();
    assertThat(path)
        .extracting(TierTable.Row::tier)
        .containsExactly("network", "server", "server", "broker", "server", "server", "network");
    assertThat(path.get(0).stage()).startsWith("client send -> servlet in");
    assertThat(path.get(0).meanMs()).isCloseTo(1.0, within(1e-9));
    assertThat(path.get(0).derived()).isFalse();
    assertThat(path.get(3).stage()).isEqualTo("publish -> confirm");
    assertThat(path.get(3).meanMs()).isCloseTo(5.0, within(1e-9));
    assertThat(path.get(3).count()).isEqualTo(1000);
    assertThat(path.get(5).meanMs()).isCloseTo(0.3, within(1e-9));
    assertThat(path.subList(0, 6)).noneMatch(TierTable.Row::derived);
    // The sum is of measured stages only; the remainder is what they leave of the client mean.
    assertThat(t.requestPathSumMs()).isCloseTo(9.8, within(1e-9));
    assertThat(path.get(6).derived()).isTrue();
    assertThat(path.get(6).meanMs()).isCloseTo(0.2, within(1e-9));
    assertThat(t.servletMeanMs()).isCloseTo(9.0, within(1e-9));
    assertThat(t.servletCount()).isEqualTo(1000);
    assertThat(t.largestShare()).isEqualTo("broker: publish -> confirm (50.0% of the client mean)");
    assertThat(t.notes()).isEmpty();
  }

  @Test
  void withoutARequestStartHeaderTheArrivalIsUnknownAndSaidSo() {
    TierReadings r = readings();
    Map<String, Histogram> stages = new java.util.HashMap<>(r.serverStages());
    stages.put("arrival", Histogram.EMPTY);
    TierReadings noHeader =
        new TierReadings(
            r.serverMetrics(),
            r.consumerMetrics(),
            r.servlet(),
            stages,
            r.consumerStages(),
            r.visibility(),
            List.of());

    TierTable t = TierCalculator.table(noHeader, 10.0, 30.0, 1000);

    assertThat(t.requestPath().get(0).meanMs()).isNull();
    assertThat(t.requestPathSumMs()).isNull();
    assertThat(t.notes()).singleElement().asString().contains("no X-Request-Start");
  }

  @Test
  void theStagesAfterTheResponseAreSummedBesideTheMeasuredVisibility() {
    TierTable t = TierCalculator.table(readings(), 10.0, 30.0, 1000);

    assertThat(t.afterResponse())
        .extracting(TierTable.Row::meanMs)
        .containsExactly(3.0, 6.0, 4.0, 2.0);
    assertThat(t.afterResponseSumMs()).isCloseTo(15.0, within(1e-9));
    assertThat(t.visibility().meanMs()).isCloseTo(15.5, within(1e-9));
    // The p99 comes from the buckets: all samples are in the bucket ending at their value.
    assertThat(t.visibility().p99Ms()).isBetween(7.75, 15.5);
  }

  @Test
  void withoutTheServerItsRowsAreUnknownAndNothingIsSummedOrBlamed() {
    TierReadings r = readings();
    TierReadings noServer =
        new TierReadings(
            "http://s/metrics",
            r.consumerMetrics(),
            null,
            Map.of(),
            r.consumerStages(),
            r.visibility(),
            List.of("server metrics n/a: refused"));

    TierTable t = TierCalculator.table(noServer, 10.0, 30.0, 1000);

    assertThat(t.requestPath()).allSatisfy(row -> assertThat(row.meanMs()).isNull());
    assertThat(t.requestPathSumMs()).isNull();
    assertThat(t.largestShare()).isNull();
    assertThat(t.afterResponseSumMs()).isCloseTo(15.0, within(1e-9));
    assertThat(t.notes()).containsExactly("server metrics n/a: refused");
  }

  @Test
  void aServletMeanAboveTheClientMeanIsFlagged() {
    TierTable t = TierCalculator.table(readings(), 8.0, 30.0, 1000);
    assertThat(t.requestPath().get(6).meanMs()).isCloseTo(-1.8, within(1e-9));
    assertThat(t.requestPathSumMs()).isCloseTo(9.8, within(1e-9));
    assertThat(t.notes()).singleElement().asString().contains("exceeds the client mean");
  }

  @Test
  void theConsoleTableShowsEveryStageAndTheSums() {
    String text = TierTableText.render(TierCalculator.table(readings(), 10.0, 30.0, 1000));
    assertThat(text)
        .startsWith("time spent per tier (writes, ms)")
        .contains("client: whole request, as the client measured it")
        .contains("broker: publish -> confirm")
        .contains("network: client send -> servlet in (client, network, Tomcat)")
        .contains("= sum of the measured stages (98.0% of the client mean)")
        .contains("network: response back to the client (the remainder) *")
        .contains("= sum after publishing (96.8% of the time to visibility)")
        .contains("database: publish -> visible (time to visibility)")
        .contains("largest share of a request: broker: publish -> confirm (50.0%")
        .contains("servlet time of a write: 9.000 ms mean over 1000 requests, 90.0%");
  }

  /**
   * Time to visibility is mostly short with a slow tail: the median says what a typical write
   * waits, the mean and p99 do not. 900 writes within 2 ms, 100 of about 50 ms.
   */
  @Test
  void theTimeToVisibilityHasItsMedianBesideItsMeanAndP99() {
    TierReadings r = readings();
    TreeMap<Double, Double> buckets = new TreeMap<>();
    buckets.put(0.002, 900.0);
    buckets.put(0.05, 1000.0);
    buckets.put(Double.POSITIVE_INFINITY, 1000.0);
    Histogram skewed = new Histogram(1000, 900 * 0.0015 + 100 * 0.05, buckets);
    TierReadings withTail =
        new TierReadings(
            r.serverMetrics(),
            r.consumerMetrics(),
            r.servlet(),
            r.serverStages(),
            r.consumerStages(),
            skewed,
            List.of());

    TierTable t = TierCalculator.table(withTail, 10.0, 30.0, 1000);

    assertThat(t.visibility().meanMs()).isCloseTo(6.35, within(1e-9));
    assertThat(t.visibility().p50Ms()).isGreaterThan(0.0).isLessThanOrEqualTo(2.0);
    assertThat(t.visibility().p99Ms()).isGreaterThan(2.0).isLessThanOrEqualTo(50.0);
    String text = TierTableText.render(t);
    assertThat(text.lines().findFirst().orElseThrow()).contains("mean", "p50", "p99", "count");
    assertThat(text)
        .containsPattern(
            "database: publish -> visible \\(time to visibility\\) +6\\.350 +1\\.[0-9]{3} +");
    assertThat(TierTableHtml.render(t)).contains("<th>p50</th>");
  }
}
