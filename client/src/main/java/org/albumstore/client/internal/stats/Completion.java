package org.albumstore.client.internal.stats;

import org.albumstore.client.RequestType;

/**
 * One finished logical request, as the statistics and the per-request CSV see it.
 *
 * @param type the request type
 * @param startNanos when it was due ({@link System#nanoTime()})
 * @param endNanos when its last attempt ended
 * @param code the final status code or exception name
 * @param ok whether it counts as a success
 * @param attempts attempts made (1 = no retry)
 */
public record Completion(
    RequestType type, long startNanos, long endNanos, String code, boolean ok, int attempts) {
  public long latencyNanos() {
    return Math.max(0, endNanos - startNanos);
  }
}
