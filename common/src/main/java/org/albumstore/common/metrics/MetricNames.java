package org.albumstore.common.metrics;

import java.util.Set;

/**
 * The metric names that more than one module relies on: the server and the consumer register them
 * (Micrometer's dotted form), the client's time-per-tier table reads them from the Prometheus text
 * ({@link #prometheusTimer}). Names only one service uses stay with that service.
 */
public final class MetricNames {
  private MetricNames() {}

  /** Every HTTP request, tagged {@code method}, {@code uri} (route template), {@code status}. */
  public static final String HTTP_REQUESTS = "http.server.requests";

  /** The {@code uri} tag of {@code POST /albums}. */
  public static final String ALBUMS_URI = "/albums";

  /** The {@code uri} tag of {@code POST /review/{likeornot}/{albumID}}. */
  public static final String VOTE_URI = "/review/{likeornot}/{albumID}";

  /** The two write endpoints; a write's servlet time is theirs with method POST, status 200. */
  public static final Set<String> WRITE_URIS = Set.of(ALBUMS_URI, VOTE_URI);

  /** The tag that names a {@link ServerStage} or a {@link ConsumerStage}. */
  public static final String STAGE_TAG = "stage";

  /** Per confirmed write, by {@link ServerStage}. */
  public static final String SERVER_STAGE = "albumstore.write.stage";

  /** Per committed write, by {@link ConsumerStage}. */
  public static final String CONSUMER_STAGE = "albumstore.consumer.write.stage";

  /** Per committed write: published → committed. */
  public static final String VISIBILITY = "albumstore.consumer.visibility";

  /**
   * A timer's name as the Prometheus text format shows it: dots become underscores and the base
   * unit is appended ({@code albumstore.write.stage} → {@code albumstore_write_stage_seconds}), as
   * Micrometer's Prometheus naming convention does (pinned by a test; the client has no
   * Micrometer).
   */
  public static String prometheusTimer(String name) {
    return name.replace('.', '_') + "_seconds";
  }
}
