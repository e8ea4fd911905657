package org.albumstore.common.amqp;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.albumstore.common.http.ProbeGet;

/**
 * The RabbitMQ management HTTP API of one broker (or cluster) and vhost, read with {@link ProbeGet}
 * (never the load's connections) and Basic authentication. The one place that builds its URLs and
 * reads its answers: the client's queue sampler, the published {@code WriteBacklog} metric and the
 * local cluster's scaler all read through it. Holds no connection (the JDK caches idle ones), so it
 * needs no closing and may be shared by threads.
 */
public final class ManagementApi {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final String base;
  private final String vhost;
  private final Map<String, String> headers;

  /**
   * @param apiBase e.g. {@code http://127.0.0.1:15672}, with or without a trailing slash
   */
  public ManagementApi(String apiBase, String vhost, String user, String password) {
    this.base = apiBase.endsWith("/") ? apiBase.substring(0, apiBase.length() - 1) : apiBase;
    this.vhost = vhost;
    String authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    this.headers = Map.of("Authorization", authorization, "Accept", "application/json");
  }

  /** The base URL, as given without a trailing slash. */
  public String base() {
    return base;
  }

  /** One path segment, percent-encoded ({@code /} is {@code %2F}, a space {@code %20}). */
  public static String pathSegment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** {@code GET /api/queues/{vhost}/{queue}}: one queue's object. */
  public URI queueUri(String queue) {
    return URI.create(base + "/api/queues/" + pathSegment(vhost) + "/" + pathSegment(queue));
  }

  /** {@code GET /api/queues/{vhost}?columns=...}: every queue of the vhost, these fields only. */
  public URI queuesUri(String columns) {
    return URI.create(base + "/api/queues/" + pathSegment(vhost) + "?columns=" + columns);
  }

  /**
   * The body of a 200; null for a 404 when {@code mayBeMissing}.
   *
   * @throws IOException when the API cannot be reached, or answers anything else
   */
  public byte[] get(URI uri, boolean mayBeMissing) throws IOException {
    ProbeGet.Response response = ProbeGet.get(uri, TIMEOUT, headers);
    if (response.status() == 404 && mayBeMissing) {
      return null;
    }
    if (response.status() != 200) {
      throw new IOException("GET " + uri + " answered HTTP " + response.status());
    }
    return response.body();
  }
}
