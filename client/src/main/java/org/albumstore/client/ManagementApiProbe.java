package org.albumstore.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import org.albumstore.client.internal.broker.QueueProbe;
import org.albumstore.common.amqp.ManagementApi;
import org.albumstore.common.config.AmqpSettings;

/**
 * Queue depth and rates from the RabbitMQ management HTTP API ({@code GET
 * /api/queues/{vhost}/{queue}}), summed over the write stream's partitions: the queue, then {@code
 * <queue>.1}, {@code <queue>.2}, ... up to the first that does not exist (so a partition left over
 * from a larger P counts too, and the client needs no partition setting).
 *
 * <p>Read through {@link ManagementApi}, not the load's connections: a sampler that waited behind
 * the load would stop sampling exactly when the numbers matter. The management plugin refreshes its
 * figures every few seconds (5 s by default), so depth and rates lag by up to that much; the
 * verifier accounts for that.
 */
public final class ManagementApiProbe implements QueueProbe {
  public static final String SOURCE = "management-api";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ManagementApi api;
  private final String queue;

  public ManagementApiProbe(
      String apiBase, String vhost, String queue, String user, String password) {
    this.api = new ManagementApi(apiBase, vhost, user, password);
    this.queue = queue;
  }

  /** Partition {@code index}'s queue object; partition 0 is the queue itself. */
  URI queueUri(int index) {
    return api.queueUri(AmqpSettings.partitionQueue(queue, index));
  }

  @Override
  public String source() {
    return SOURCE;
  }

  @Override
  public QueueSample sample() throws IOException {
    long now = System.currentTimeMillis();
    QueueSample sum = parse(JSON.readTree(api.get(queueUri(0), false)), now);
    for (int i = 1; i < AmqpSettings.MAX_PARTITIONS; i++) {
      byte[] body = api.get(queueUri(i), true);
      if (body == null) {
        break;
      }
      sum = sum.plus(parse(JSON.readTree(body), now));
    }
    return sum;
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
