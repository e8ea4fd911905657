package org.albumstore.client.internal.workload;

import java.util.function.BooleanSupplier;
import org.albumstore.client.internal.http.IdempotencyKeys;
import org.albumstore.client.internal.verify.AcknowledgedSegment;

/**
 * What one writer does, whether it runs as a {@link WriterLoop} on a thread of its own or as a
 * {@link VirtualUser} on the event loops.
 *
 * @param workload what an iteration does
 * @param pacer when each write is due
 * @param keys the run's idempotency keys
 * @param label this writer's label in idempotency keys, unique in the run (e.g. {@code t12})
 * @param iterations the most iterations it runs
 * @param acknowledged its segment of the acknowledged writes, for the verification
 * @param recent where readers find created albums
 * @param stopped when true, the writer ends after the current iteration
 * @param readBack whether it reads back what it was told exists
 */
public record WriterJob(
    Workload workload,
    Pacer pacer,
    IdempotencyKeys keys,
    String label,
    int iterations,
    AcknowledgedSegment acknowledged,
    RecentAlbums recent,
    BooleanSupplier stopped,
    boolean readBack) {

  /** The same job, reading back what it was told exists. */
  public WriterJob readingBack() {
    return new WriterJob(
        workload, pacer, keys, label, iterations, acknowledged, recent, stopped, true);
  }
}
