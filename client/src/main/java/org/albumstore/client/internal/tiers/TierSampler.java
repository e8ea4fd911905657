package org.albumstore.client.internal.tiers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.albumstore.common.metrics.ConsumerStage;
import org.albumstore.common.metrics.MetricNames;
import org.albumstore.common.metrics.ServerStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the server's and the consumer's metrics once when the measured load starts and once at the
 * end, and keeps the difference: the time per tier of this run only, whatever the processes did
 * before (warm-up, earlier runs). Another client loading the same server at the same time would
 * still be counted in; the table shows the counts so that this can be seen.
 *
 * <p>A tier of several instances (a cluster's servers or consumers) is read at every instance's
 * endpoint and merged ({@link Scrape#merge}): each stage's count and sum add up, so its mean is
 * weighted by the instances' counts, and its quantiles come from the summed buckets, never from an
 * average of the instances' quantiles.
 *
 * <p>A tier whose endpoints do not all answer at the start is not read again: its rows are n/a and
 * a note says why, the run goes on.
 */
public final class TierSampler {
  private static final Logger log = LoggerFactory.getLogger(TierSampler.class);
  private static final String NONE = "none";
  private static final String HTTP_REQUESTS =
      MetricNames.prometheusTimer(MetricNames.HTTP_REQUESTS);
  private static final String SERVER_STAGE = MetricNames.prometheusTimer(MetricNames.SERVER_STAGE);
  private static final String CONSUMER_STAGE =
      MetricNames.prometheusTimer(MetricNames.CONSUMER_STAGE);
  private static final String VISIBILITY = MetricNames.prometheusTimer(MetricNames.VISIBILITY);

  private final List<MetricsEndpoint> server;
  private final List<MetricsEndpoint> consumer;
  private final List<String> notes = new ArrayList<>();
  private Scrape serverStart;
  private Scrape consumerStart;

  private TierSampler(String serverUrl, String consumerUrl) {
    this.server = endpoints(serverUrl);
    this.consumer = endpoints(consumerUrl);
  }

  /**
   * Takes the first scrapes now.
   *
   * @param serverUrl the server's metrics URL (several: separated by commas), or null to leave the
   *     server out
   * @param consumerUrl the consumer's metrics URL (several: separated by commas), or null to leave
   *     the consumer out
   */
  public static TierSampler start(String serverUrl, String consumerUrl) {
    TierSampler s = new TierSampler(serverUrl, consumerUrl);
    s.serverStart = s.read(s.server, "server", SERVER_STAGE + "_count");
    s.consumerStart = s.read(s.consumer, "consumer", CONSUMER_STAGE + "_count");
    return s;
  }

  /** Takes the second scrapes now and returns the differences. */
  public TierReadings finish() {
    Scrape serverEnd = serverStart == null ? null : read(server, "server", SERVER_STAGE + "_count");
    Scrape consumerEnd =
        consumerStart == null ? null : read(consumer, "consumer", CONSUMER_STAGE + "_count");
    Histogram servlet = null;
    Map<String, Histogram> serverStages = new HashMap<>();
    if (serverEnd != null) {
      servlet = delta(serverEnd, serverStart, HTTP_REQUESTS, TierSampler::isWrite200);
      for (ServerStage stage : ServerStage.values()) {
        serverStages.put(stage.tag(), delta(serverEnd, serverStart, SERVER_STAGE, stage.tag()));
      }
    }
    Histogram visibility = null;
    Map<String, Histogram> consumerStages = new HashMap<>();
    if (consumerEnd != null) {
      for (ConsumerStage stage : ConsumerStage.values()) {
        consumerStages.put(
            stage.tag(), delta(consumerEnd, consumerStart, CONSUMER_STAGE, stage.tag()));
      }
      visibility = delta(consumerEnd, consumerStart, VISIBILITY, l -> true);
    }
    return new TierReadings(
        urls(server), urls(consumer), servlet, serverStages, consumerStages, visibility, notes);
  }

  static boolean isWrite200(Map<String, String> labels) {
    return "POST".equals(labels.get("method"))
        && "200".equals(labels.get("status"))
        && MetricNames.WRITE_URIS.contains(labels.get("uri"));
  }

  private static Histogram delta(Scrape end, Scrape start, String base, String stage) {
    return delta(end, start, base, l -> stage.equals(l.get(MetricNames.STAGE_TAG)));
  }

  private static Histogram delta(
      Scrape end, Scrape start, String base, Predicate<Map<String, String>> labels) {
    return end.histogram(base, labels).minus(start.histogram(base, labels));
  }

  private static List<MetricsEndpoint> endpoints(String urls) {
    return urls == null
        ? null
        : Arrays.stream(urls.split(",")).map(String::strip).map(MetricsEndpoint::new).toList();
  }

  private static String urls(List<MetricsEndpoint> endpoints) {
    return endpoints == null
        ? NONE
        : endpoints.stream().map(MetricsEndpoint::url).collect(Collectors.joining(","));
  }

  /**
   * Every endpoint's scrape merged into one, or null with a note (and one log line) when there are
   * none or one fails or lacks our names.
   */
  private Scrape read(List<MetricsEndpoint> endpoints, String side, String expected) {
    if (endpoints == null) {
      return null;
    }
    List<Scrape> scrapes = new ArrayList<>();
    for (MetricsEndpoint endpoint : endpoints) {
      Scrape s = read(endpoint, side, expected);
      if (s == null) {
        return null;
      }
      scrapes.add(s);
    }
    return Scrape.merge(scrapes);
  }

  private Scrape read(MetricsEndpoint endpoint, String side, String expected) {
    String problem;
    try {
      Scrape s = endpoint.scrape();
      if (s.has(expected)) {
        return s;
      }
      problem = "no " + expected + " in " + endpoint.url() + " (not an Album Store " + side + "?)";
    } catch (IOException | IllegalArgumentException e) {
      problem = endpoint.url() + ": " + e;
    }
    String note = side + " metrics n/a: " + problem;
    log.warn("{}; the time-per-tier table will lack the {} rows", note, side);
    notes.add(note);
    return null;
  }
}
