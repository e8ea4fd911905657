package org.albumstore.client.internal.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
  @Test
  void readsNamesLabelsAndValuesAndSkipsComments() {
    List<PrometheusText.Sample> s =
        PrometheusText.parse(
            "# HELP a_total Things \\\\ done\n"
                + "# TYPE a_total counter\n"
                + "a_total 42.0\n"
                + "\n"
                + "b_seconds_bucket{stage=\"x\",le=\"2.1845E-5\"} 3\n"
                + "b_seconds_bucket{stage=\"x\",le=\"+Inf\"} 7 1700000000000\n"
                + "c{a=\"1\", b=\"two words\",} -1.5e3\r\n"
                + "# EOF\n");

    assertThat(s)
        .containsExactly(
            new PrometheusText.Sample("a_total", Map.of(), 42.0),
            new PrometheusText.Sample(
                "b_seconds_bucket", Map.of("stage", "x", "le", "2.1845E-5"), 3),
            new PrometheusText.Sample("b_seconds_bucket", Map.of("stage", "x", "le", "+Inf"), 7),
            new PrometheusText.Sample("c", Map.of("a", "1", "b", "two words"), -1500));
  }

  @Test
  void unescapesLabelValues() {
    PrometheusText.Sample s =
        PrometheusText.parse("m{path=\"a\\\"b\\\\c\\nd\",x=\"}\"} 1\n").get(0);
    assertThat(s.labels()).containsEntry("path", "a\"b\\c\nd").containsEntry("x", "}");
  }

  @Test
  void specialValuesAreNumbers() {
    assertThat(PrometheusText.number("+Inf")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(PrometheusText.number("-Inf")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(PrometheusText.number("NaN")).isNaN();
    assertThat(PrometheusText.number("1.09226E-4")).isEqualTo(1.09226E-4);
  }

  @Test
  void malformedLinesAreSkippedNotFatal() {
    List<PrometheusText.Sample> s =
        PrometheusText.parse(
            "no_value\n" + "x{unclosed=\"v} 1\n" + "y{=\"v\"} 1\n" + "z 1,5\n" + "ok 2\n");
    assertThat(s).containsExactly(new PrometheusText.Sample("ok", Map.of(), 2));
  }

  @Test
  void aScrapeSumsTheSeriesOfATimerThatMatch() {
    Scrape scrape =
        Scrape.parse(
            "t_seconds_bucket{uri=\"/a\",le=\"0.001\"} 1\n"
                + "t_seconds_bucket{uri=\"/a\",le=\"+Inf\"} 2\n"
                + "t_seconds_count{uri=\"/a\"} 2\n"
                + "t_seconds_sum{uri=\"/a\"} 0.003\n"
                + "t_seconds_bucket{uri=\"/b\",le=\"0.001\"} 0\n"
                + "t_seconds_bucket{uri=\"/b\",le=\"+Inf\"} 1\n"
                + "t_seconds_count{uri=\"/b\"} 1\n"
                + "t_seconds_sum{uri=\"/b\"} 0.005\n"
                + "t_seconds_max{uri=\"/b\"} 0.005\n"
                + "t_seconds_count{uri=\"/c\"} 100\n");

    Histogram ab = scrape.histogram("t_seconds", l -> !"/c".equals(l.get("uri")));
    assertThat(ab.count()).isEqualTo(3);
    assertThat(ab.sumSeconds()).isCloseTo(0.008, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(ab.buckets()).containsEntry(0.001, 1.0).containsEntry(Double.POSITIVE_INFINITY, 3.0);
    assertThat(scrape.histogram("t_seconds", Map.of("uri", "/c")).count()).isEqualTo(100);
    assertThat(scrape.has("t_seconds_max")).isTrue();
    assertThat(scrape.has("t_seconds")).isFalse();
  }
}
