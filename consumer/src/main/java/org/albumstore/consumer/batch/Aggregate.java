package org.albumstore.consumer.batch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBatch;

/**
 * The writes of many messages merged into what one transaction applies: the albums to insert and
 * the reviews to record, each once, in a fixed key order.
 *
 * <p>Why sorted: concurrent transactions that take row locks (unique-index entries, counter rows)
 * in the same global order can wait for each other but never deadlock. Every batch runs its three
 * statements in the same order (albums, ledger, counters) and each statement visits its keys in
 * ascending order, so the lock order is the same everywhere.
 *
 * <p>Why de-duplicated: the same message can sit twice in one batch (a publisher retry, a
 * redelivery racing a recovery). One statement inserting a key twice would at best count it once by
 * luck; here it simply never happens. The first occurrence of an album ID or event ID wins.
 */
public final class Aggregate {
  /**
   * UUIDs in PostgreSQL's order (unsigned, byte by byte), which is also the ledger index's order.
   * {@link UUID#compareTo} compares signed longs and would order some IDs differently.
   */
  public static final Comparator<UUID> UUID_ORDER =
      Comparator.comparing(UUID::getMostSignificantBits, Long::compareUnsigned)
          .thenComparing(UUID::getLeastSignificantBits, Long::compareUnsigned);

  private final int messageCount;
  private final List<NewAlbum> albums;
  private final Map<UUID, Review> reviewsById;

  private Aggregate(int messageCount, List<NewAlbum> albums, Map<UUID, Review> reviewsById) {
    this.messageCount = messageCount;
    this.albums = albums;
    this.reviewsById = reviewsById;
  }

  /** Merges decoded messages; their order matters only for which duplicate wins. */
  public static Aggregate of(List<WriteBatch> messages) {
    Map<String, NewAlbum> albums = new TreeMap<>();
    Map<UUID, Review> reviews = new TreeMap<>(UUID_ORDER);
    for (WriteBatch m : messages) {
      for (NewAlbum a : m.albums()) {
        albums.putIfAbsent(a.albumId(), a);
      }
      for (Review r : m.reviews()) {
        reviews.putIfAbsent(r.eventId(), r);
      }
    }
    return new Aggregate(
        messages.size(), List.copyOf(albums.values()), new LinkedHashMap<>(reviews));
  }

  public int messageCount() {
    return messageCount;
  }

  /** Distinct albums, ascending by album ID. */
  public List<NewAlbum> albums() {
    return albums;
  }

  /** Distinct review event IDs, ascending in {@link #UUID_ORDER}. */
  public List<UUID> reviewEventIds() {
    return List.copyOf(reviewsById.keySet());
  }

  public int reviewCount() {
    return reviewsById.size();
  }

  /**
   * The counter deltas of the reviews whose event IDs are in {@code newEventIds} (those the ledger
   * had not seen), one per album, ascending by album ID. Reviews not in the set were applied before
   * and change nothing; IDs in the set that this batch does not hold are ignored.
   */
  public List<AlbumDelta> deltasFor(Collection<UUID> newEventIds) {
    Map<String, long[]> perAlbum = new TreeMap<>();
    // A set: an ID listed twice must still count once.
    for (UUID id : new HashSet<>(newEventIds)) {
      Review r = reviewsById.get(id);
      if (r == null) {
        continue;
      }
      long[] counts = perAlbum.computeIfAbsent(r.albumId(), k -> new long[2]);
      counts[r.vote() == Vote.LIKE ? 0 : 1]++;
    }
    List<AlbumDelta> deltas = new ArrayList<>(perAlbum.size());
    perAlbum.forEach((album, c) -> deltas.add(new AlbumDelta(album, c[0], c[1])));
    return deltas;
  }
}
