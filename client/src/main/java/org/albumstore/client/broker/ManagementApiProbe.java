package org.albumstore.client.broker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.albumstore.client.stats.QueueSample;

/**
 * Queue depth and rates from the RabbitMQ management HTTP API ({@code GET
 * /api/queues/{vhost}/{queue}}).
 *
 * <p>Uses the JDK's HTTP client, not the load's connection pool: a sampler that waited for a pooled
 * connection behind the load would stop sampling exactly when the numbers matter. The management
 * plugin refreshes its figures every few seconds (5 s by default), so depth and rates lag by up to
 * that much; the verifier accounts for that.
 */
public final class ManagementApiProbe implements QueueProbe {
  public static final String SOURCE = "management-api";
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http;
  private final URI queueUri;
  private final String authorization;

  public ManagementApiProbe(
      String apiBase, String vhost, String queue, String user, String password) {
    String base = apiBase.endsWith("/") ? apiBase.substring(0, apiBase.length() - 1) : apiBase;
    this.queueUri =
        URI.create(base + "/api/queues/" + pathSegment(vhost) + "/" + pathSegment(queue));
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  }

  static String pathSegment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  URI queueUri() {
    return queueUri;
  }

  @Override
  public String source() {
    return SOURCE;
  }

  @Override
  public QueueSample sample() throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(queueUri)
            .timeout(TIMEOUT)
            .header("Authorization", authorization)
            .header("Accept", "application/json")
            .GET()
            .build();
    HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() != 200) {
      throw new IOException("GET " + queueUri + " answered HTTP " + response.statusCode());
    }
    return parse(JSON.readTree(response.body()), System.currentTimeMillis());
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
    // The JDK client's resources are released when it becomes unreachable (close() is Java 21+).
  }
}
