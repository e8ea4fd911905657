package org.albumstore.common.metrics;

import java.util.Set;

/**
 * The metric names that more than one module relies on: the server and the consumer register them
 * (Micrometer's dotted form), the client's time-per-tier table reads them from the Prometheus text
 * ({@link #prometheusTimer}); the load client's own, which the dashboard shows beside the server's.
 * Names only one service uses stay with that service.
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
   * The load client's latency of each successful request, by {@link #CLIENT_TYPE_TAG}: the time the
   * client measured (due to last byte, retries included), beside the server's {@link
   * #HTTP_REQUESTS}; the difference is the network and Tomcat's queue.
   */
  public static final String CLIENT_REQUESTS = "albumstore.client.requests";

  /** The load client's finished requests, by {@link #CLIENT_TYPE_TAG} and {@link #OUTCOME_TAG}. */
  public static final String CLIENT_FINISHED = "albumstore.client.requests.finished";

  /** The load client's requests sent and not yet finished (a gauge). */
  public static final String CLIENT_IN_FLIGHT = "albumstore.client.in.flight.requests";

  /** The write queue's depth as the load client last sampled it (NaN when unknown). */
  public static final String CLIENT_QUEUE_DEPTH = "albumstore.client.queue.depth.messages";

  /** 1 for the phase the client's run is in, 0 for the others, by {@link #PHASE_TAG}. */
  public static final String CLIENT_PHASE = "albumstore.client.run.phase";

  /** A client request type, as its report's label made a slug ({@code post_review_like}). */
  public static final String CLIENT_TYPE_TAG = "type";

  /** {@code ok} or {@code failed} (after all retries). */
  public static final String OUTCOME_TAG = "outcome";

  /** The client run's phase: {@code starting}, {@code warmup}, {@code load}, ... */
  public static final String PHASE_TAG = "phase";

  /**
   * A timer's name as the Prometheus text format shows it: dots become underscores and the base
   * unit is appended ({@code albumstore.write.stage} → {@code albumstore_write_stage_seconds}), as
   * Micrometer's Prometheus naming convention does (pinned by a test; the client's tier table reads
   * the services' text, not a registry of its own).
   */
  public static String prometheusTimer(String name) {
    return name.replace('.', '_') + "_seconds";
  }
}
