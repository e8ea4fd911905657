package org.albumstore.client.internal.tiers;

import java.util.List;
import java.util.Map;
import org.albumstore.common.metrics.ConsumerStage;
import org.albumstore.common.metrics.ServerStage;

/**
 * What the metrics endpoints said about one run: the differences between a scrape at its start and
 * one at its end. A side that could not be read has null/empty entries and a note saying why.
 *
 * @param serverMetrics the server's URL, or {@code none}
 * @param consumerMetrics the consumer's URL, or {@code none}
 * @param servlet servlet time of successful writes (POST, 200), or null
 * @param serverStages by stage name (a {@link ServerStage}'s tag); empty when unknown
 * @param consumerStages by stage name (a {@link ConsumerStage}'s tag); empty when unknown
 * @param visibility published → committed per write, or null
 * @param notes why a side is missing, one line each
 */
public record TierReadings(
    String serverMetrics,
    String consumerMetrics,
    Histogram servlet,
    Map<String, Histogram> serverStages,
    Map<String, Histogram> consumerStages,
    Histogram visibility,
    List<String> notes) {

  public TierReadings {
    serverStages = Map.copyOf(serverStages);
    consumerStages = Map.copyOf(consumerStages);
    notes = List.copyOf(notes);
  }
}
