package org.albumstore.common.amqp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.albumstore.common.config.AmqpSettings;

/**
 * The write stream's backlog, the consumers' scaling metric ({@code AlbumStore/WriteBacklog}):
 * ready plus unacknowledged messages summed over every partition's queue, from one {@code GET
 * /api/queues/{vhost}?columns=name,messages_ready,messages_unacknowledged} of the management API.
 *
 * <p>What counts, and why:
 *
 * <ul>
 *   <li>Unacknowledged messages: a consumer busy with its batches holds them; without them a busy
 *       consumer looks idle and is scaled in mid-work (KEDA's loop).
 *   <li>Partitions 0 to P - 1, each of which must exist: a wrong queue name or P would otherwise
 *       read as an empty backlog and scale every consumer in. Partitions past P that still exist
 *       count too, since consumers drain them.
 *   <li>Not the dead-letter queues ({@code .dlq}): no consumer drains them, so more consumers would
 *       not shrink them.
 * </ul>
 *
 * A queue the plugin has not collected figures for yet (just declared) counts 0.
 */
public final class WriteBacklog {
  /** The fields asked for; the rest of each queue's object is not sent. */
  public static final String COLUMNS = "name,messages_ready,messages_unacknowledged";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ManagementApi api;
  private final String queue;
  private final int partitions;

  public WriteBacklog(ManagementApi api, String queue, int partitions) {
    if (partitions < 1 || partitions > AmqpSettings.MAX_PARTITIONS) {
      throw new IllegalArgumentException("partitions " + partitions);
    }
    this.api = api;
    this.queue = queue;
    this.partitions = partitions;
  }

  /**
   * The backlog now (as of the plugin's last collection).
   *
   * @throws IOException when the API cannot be read, or a partition's queue does not exist
   */
  public long read() throws IOException {
    return sum(JSON.readTree(api.get(api.queuesUri(COLUMNS), false)), queue, partitions);
  }

  /**
   * The backlog in {@code queues}, the API's array of queue objects.
   *
   * @throws IOException when a partition below {@code partitions} is not among them
   */
  public static long sum(JsonNode queues, String queue, int partitions) throws IOException {
    Map<String, Integer> partitionOf = new HashMap<>();
    for (int i = 0; i < AmqpSettings.MAX_PARTITIONS; i++) {
      partitionOf.put(AmqpSettings.partitionQueue(queue, i), i);
    }
    boolean[] seen = new boolean[partitions];
    long sum = 0;
    for (JsonNode q : queues) {
      Integer i = partitionOf.get(q.path("name").asText());
      if (i == null) {
        continue; // another stream's queue, or a dead-letter queue
      }
      if (i < partitions) {
        seen[i] = true;
      }
      sum += q.path("messages_ready").asLong(0) + q.path("messages_unacknowledged").asLong(0);
    }
    for (int i = 0; i < partitions; i++) {
      if (!seen[i]) {
        throw new IOException(
            "queue "
                + AmqpSettings.partitionQueue(queue, i)
                + " not found: is the queue name or the number of partitions wrong?");
      }
    }
    return sum;
  }
}
