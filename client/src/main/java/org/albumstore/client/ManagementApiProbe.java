package org.albumstore.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.albumstore.client.internal.broker.QueueProbe;
import org.albumstore.client.internal.http.ProbeGet;
import org.albumstore.common.config.AmqpSettings;

/**
 * Queue depth and rates from the RabbitMQ management HTTP API ({@code GET
 * /api/queues/{vhost}/{queue}}), summed over the write stream's partitions: the queue, then {@code
 * <queue>.1}, {@code <queue>.2}, ... up to the first that does not exist (so a partition left over
 * from a larger P counts too, and the client needs no partition setting).
 *
 * <p>Read with {@link ProbeGet}, not the load's connections: a sampler that waited behind the load
 * would stop sampling exactly when the numbers matter. The management plugin refreshes its figures
 * every few seconds (5 s by default), so depth and rates lag by up to that much; the verifier
 * accounts for that.
 */
public final class ManagementApiProbe implements QueueProbe {
  public static final String SOURCE = "management-api";
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String base;
  private final String vhost;
  private final String queue;
  private final Map<String, String> headers;

  public ManagementApiProbe(
      String apiBase, String vhost, String queue, String user, String password) {
    this.base = apiBase.endsWith("/") ? apiBase.substring(0, apiBase.length() - 1) : apiBase;
    this.vhost = vhost;
    this.queue = queue;
    String authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    this.headers = Map.of("Authorization", authorization, "Accept", "application/json");
  }

  static String pathSegment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Partition {@code index}'s queue object; partition 0 is the queue itself. */
  URI queueUri(int index) {
    String name = AmqpSettings.partitionQueue(queue, index);
    return URI.create(base + "/api/queues/" + pathSegment(vhost) + "/" + pathSegment(name));
  }

  @Override
  public String source() {
    return SOURCE;
  }

  @Override
  public QueueSample sample() throws IOException {
    long now = System.currentTimeMillis();
    QueueSample sum = parse(JSON.readTree(get(queueUri(0), false)), now);
    for (int i = 1; i < AmqpSettings.MAX_PARTITIONS; i++) {
      byte[] body = get(queueUri(i), true);
      if (body == null) {
        break;
      }
      sum = sum.plus(parse(JSON.readTree(body), now));
    }
    return sum;
  }

  /** The body of a 200; null for a 404 when {@code mayBeMissing}; otherwise an IOException. */
  private byte[] get(URI uri, boolean mayBeMissing) throws IOException {
    ProbeGet.Response response = ProbeGet.get(uri, TIMEOUT, headers);
    if (response.status() == 404 && mayBeMissing) {
      return null;
    }
    if (response.status() != 200) {
      throw new IOException("GET " + uri + " answered HTTP " + response.status());
    }
    return response.body();
  }

  /**
   * Reads the queue object. Counts are absent until the plugin has collected them once (right after
   * the queue was declared): then depth is unknown. {@code message_stats} is absent while there has
   * been no traffic: then the rates are 0.
   */
  static QueueSample parse(JsonNode q, long epochMillis) {
    long depth = q.hasNonNull("messages") ? q.get("messages").asLong() : -1;
    long unacked =
        q.hasNonNull("messages_unacknowledged") ? q.get("messages_unacknowledged").asLong() : -1;
    JsonNode stats = q.path("message_stats");
    double publish = stats.path("publish_details").path("rate").asDouble(0);
    JsonNode deliver = stats.path("deliver_get_details");
    if (deliver.isMissingNode()) {
      deliver = stats.path("deliver_details");
    }
    return new QueueSample(
        epochMillis, SOURCE, depth, unacked, publish, deliver.path("rate").asDouble(0));
  }

  @Override
  public void close() {
    // Nothing held: the JDK keeps idle connections in its own cache and closes them.
  }
}
