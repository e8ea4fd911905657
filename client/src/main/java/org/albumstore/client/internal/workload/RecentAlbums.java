package org.albumstore.client.internal.workload;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The album IDs the readers pick from: a fixed-size ring of the most recently created albums, so
 * that readers hit valid IDs without a structure that grows with the run.
 */
public final class RecentAlbums {
  private final AtomicReferenceArray<String> ring;
  private final AtomicLong added = new AtomicLong();

  public RecentAlbums(int capacity) {
    ring = new AtomicReferenceArray<>(capacity);
  }

  public void add(String albumId) {
    long n = added.getAndIncrement();
    ring.set((int) (n % ring.length()), albumId);
  }

  /**
   * @return a random recently created album ID, or null when none has been created yet
   */
  public String pick() {
    long n = Math.min(added.get(), ring.length());
    if (n == 0) {
      return null;
    }
    // A slot claimed but not yet written is still null: try another, a few times.
    for (int tries = 0; tries < 4; tries++) {
      String id = ring.get(ThreadLocalRandom.current().nextInt((int) n));
      if (id != null) {
        return id;
      }
    }
    return null;
  }
}
