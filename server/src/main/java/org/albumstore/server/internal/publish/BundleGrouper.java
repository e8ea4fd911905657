package org.albumstore.server.internal.publish;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The group-commit rule: which pending writes share one broker message.
 *
 * <p>The publisher thread whose turn it is starts a bundle with the oldest write it has and adds
 * whatever is already waiting, without waiting for more, until the bundle holds {@code maxEvents}
 * writes, or the next write would push the estimated body past {@code maxBytes}, or the next write
 * repeats a key already in the bundle. The write that did not fit is carried over to start the next
 * bundle, so nothing is reordered or lost. A single write larger than {@code maxBytes} still forms
 * a bundle of one.
 *
 * <p>Not waiting is what makes this adaptive: under light load every write is a message of its own
 * (lowest latency); under heavy load writes pile up while the previous message awaits its confirm,
 * and the next message takes them all (highest throughput per confirm).
 *
 * <p>Pure and single-threaded: the {@link Bundler} owns the one instance and uses it only from the
 * publisher thread that holds its turn.
 */
final class BundleGrouper {
  private final int maxEvents;
  private final long maxBytes;
  private PendingWrite carried;

  BundleGrouper(int maxEvents, long maxBytes) {
    if (maxEvents < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("maxEvents and maxBytes must be positive");
    }
    this.maxEvents = maxEvents;
    this.maxBytes = maxBytes;
  }

  /** The write held back from the previous bundle, if any; it must start the next bundle. */
  PendingWrite takeCarried() {
    PendingWrite c = carried;
    carried = null;
    return c;
  }

  /**
   * Groups {@code first} with the writes {@code more} hands out (null: nothing waiting now).
   *
   * @return the bundle, in arrival order, never empty
   */
  List<PendingWrite> group(PendingWrite first, Supplier<PendingWrite> more) {
    if (carried != null) {
      throw new IllegalStateException("the carried write must start the next bundle");
    }
    List<PendingWrite> bundle = new ArrayList<>(Math.min(maxEvents, 64));
    Set<String> keys = new HashSet<>();
    bundle.add(first);
    if (first.dedupKey() != null) {
      keys.add(first.dedupKey());
    }
    long bytes = first.estimatedBytes();
    while (bundle.size() < maxEvents) {
      PendingWrite next = more.get();
      if (next == null) {
        break;
      }
      String key = next.dedupKey();
      if (bytes + next.estimatedBytes() > maxBytes || (key != null && !keys.add(key))) {
        carried = next;
        break;
      }
      bundle.add(next);
      bytes += next.estimatedBytes();
    }
    return bundle;
  }
}
