package org.albumstore.client.tiers;

import java.util.List;
import java.util.Set;

/**
 * The names the server and the consumer expose (see server/README.md and consumer/README.md), as
 * they appear in the Prometheus text format. Their own integration tests pin the same names.
 */
public final class MetricNames {
  private MetricNames() {}

  /** Every HTTP request: {@code method}, {@code uri} (route template), {@code status}. */
  public static final String HTTP_REQUESTS = "http_server_requests_seconds";

  /** The two write endpoints; a write's servlet time is theirs with method POST, status 200. */
  public static final Set<String> WRITE_URIS = Set.of("/albums", "/review/{likeornot}/{albumID}");

  /** Per confirmed write, by {@code stage}: {@link #SERVER_STAGES}. */
  public static final String SERVER_STAGE = "albumstore_write_stage_seconds";

  public static final List<String> SERVER_STAGES =
      List.of("arrival", "validate", "channel_wait", "confirm", "respond", "complete");

  /** The header the client stamps its send time into (epoch microseconds, {@code t=...}). */
  public static final String REQUEST_START = "X-Request-Start";

  /** Per committed write, by {@code stage}: {@link #CONSUMER_STAGES}. */
  public static final String CONSUMER_STAGE = "albumstore_consumer_write_stage_seconds";

  public static final List<String> CONSUMER_STAGES =
      List.of("queue", "batch_wait", "apply", "commit");

  /** Per committed write: published → committed. */
  public static final String VISIBILITY = "albumstore_consumer_visibility_seconds";
}
