package org.albumstore.client.internal.tiers;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/** One reading of a metrics endpoint: its samples, and the timers among them by name and labels. */
final class Scrape {
  private final List<PrometheusText.Sample> samples;

  Scrape(List<PrometheusText.Sample> samples) {
    this.samples = List.copyOf(samples);
  }

  public static Scrape parse(String text) {
    return new Scrape(PrometheusText.parse(text));
  }

  /**
   * Several instances' scrapes as one: their samples side by side. {@link #histogram} sums every
   * series it selects, so a merged timer's count, sum and buckets are the instances' totals: its
   * mean is weighted by their counts and its quantiles come from the merged buckets.
   */
  public static Scrape merge(List<Scrape> scrapes) {
    return new Scrape(scrapes.stream().flatMap(s -> s.samples.stream()).toList());
  }

  public List<PrometheusText.Sample> samples() {
    return samples;
  }

  /** Whether any sample has this exact name. */
  public boolean has(String name) {
    return samples.stream().anyMatch(s -> s.name().equals(name));
  }

  /**
   * The timer (or distribution summary) {@code base}, e.g. {@code albumstore_write_stage_seconds},
   * summed over every series whose labels pass {@code labels} (the {@code le} label is ignored for
   * that test). Summing buckets bound by bound is right because every series of one timer has the
   * same bounds.
   */
  public Histogram histogram(String base, Predicate<Map<String, String>> labels) {
    double count = 0;
    double sum = 0;
    TreeMap<Double, Double> buckets = new TreeMap<>();
    String countName = base + "_count";
    String sumName = base + "_sum";
    String bucketName = base + "_bucket";
    for (PrometheusText.Sample s : samples) {
      String n = s.name();
      if (!n.startsWith(base) || !labels.test(s.labels())) {
        continue;
      }
      if (n.equals(countName)) {
        count += s.value();
      } else if (n.equals(sumName)) {
        sum += s.value();
      } else if (n.equals(bucketName) && s.labels().containsKey("le")) {
        try {
          buckets.merge(PrometheusText.number(s.labels().get("le")), s.value(), Double::sum);
        } catch (NumberFormatException e) {
          // not a bucket bound; ignore the line
        }
      }
    }
    return new Histogram(count, sum, buckets);
  }

  /** The series of {@code base} whose labels include every one of {@code match}. */
  public Histogram histogram(String base, Map<String, String> match) {
    return histogram(base, l -> l.entrySet().containsAll(match.entrySet()));
  }
}
