package org.albumstore.consumer.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;

/**
 * The writes of many messages merged into what one transaction applies: the albums to insert and
 * the ledger rows to record, each once, in a fixed key order.
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
  static final Comparator<UUID> UUID_ORDER =
      Comparator.comparing(UUID::getMostSignificantBits, Long::compareUnsigned)
          .thenComparing(UUID::getLeastSignificantBits, Long::compareUnsigned);

  private final int messageCount;
  private final List<NewAlbum> albums;
  private final Map<UUID, Review> reviewsById;
  private final Map<UUID, List<AlbumVotes>> unkeyedByMessage;
  private final Map<UUID, Map<String, Long>> reviewTimes;
  private final List<UUID> ledgerIds;

  private Aggregate(
      int messageCount,
      List<NewAlbum> albums,
      Map<UUID, Review> reviewsById,
      Map<UUID, List<AlbumVotes>> unkeyedByMessage,
      Map<UUID, Map<String, Long>> reviewTimes) {
    this.messageCount = messageCount;
    this.albums = albums;
    this.reviewsById = reviewsById;
    this.unkeyedByMessage = unkeyedByMessage;
    this.reviewTimes = reviewTimes;
    TreeSet<UUID> ids = new TreeSet<>(UUID_ORDER);
    ids.addAll(reviewsById.keySet());
    ids.addAll(unkeyedByMessage.keySet());
    this.ledgerIds = List.copyOf(ids);
  }

  /**
   * Merges decoded messages; their order matters only for which duplicate wins.
   *
   * <p>A message with an ID contributes its unkeyed reviews under that ID, whether they travel one
   * by one (version 1) or counted per album (its votes, version 2): one ledger row for all of them
   * (they can only come back as a redelivery of this very message). Keyed reviews, and every review
   * of a message without an ID, are recorded by their own event IDs. A version 3 message's review
   * times go with the ledger IDs of its reviews: a review applied before moves no time either.
   */
  public static Aggregate of(List<WriteBundle> messages) {
    Map<String, NewAlbum> albums = new TreeMap<>();
    Map<UUID, Review> reviews = new TreeMap<>(UUID_ORDER);
    Map<UUID, List<AlbumVotes>> unkeyed = new HashMap<>();
    Map<UUID, Map<String, Long>> times = new HashMap<>();
    for (WriteBundle m : messages) {
      for (NewAlbum a : m.albums()) {
        albums.putIfAbsent(a.albumId(), a);
      }
      // The same message twice in one batch: its unkeyed reviews count once, like its keyed ones.
      boolean firstCopy = m.id() != null && !unkeyed.containsKey(m.id());
      List<AlbumVotes> ofMessage = new ArrayList<>(firstCopy ? m.votes() : List.of());
      for (Review r : m.reviews()) {
        if (m.id() == null || r.keyed()) {
          if (reviews.putIfAbsent(r.eventId(), r) == null) {
            timeOf(m, r.albumId()).ifPresent(t -> times.put(r.eventId(), Map.of(r.albumId(), t)));
          }
        } else if (firstCopy) {
          boolean like = r.vote() == Vote.LIKE;
          ofMessage.add(new AlbumVotes(r.albumId(), like ? 1 : 0, like ? 0 : 1));
        }
      }
      if (!ofMessage.isEmpty()) {
        unkeyed.put(m.id(), List.copyOf(ofMessage));
        times.put(m.id(), m.reviewedAt());
      }
    }
    return new Aggregate(
        messages.size(),
        List.copyOf(albums.values()),
        new LinkedHashMap<>(reviews),
        unkeyed,
        times);
  }

  private static Optional<Long> timeOf(WriteBundle m, String albumId) {
    return Optional.ofNullable(m.reviewedAt().get(albumId));
  }

  public int messageCount() {
    return messageCount;
  }

  /** Distinct albums, ascending by album ID. */
  List<NewAlbum> albums() {
    return albums;
  }

  /**
   * The ledger rows this batch needs, distinct and ascending in {@link #UUID_ORDER}: the event ID
   * of every keyed review (or review of a message without an ID) and the message ID of every
   * message with unkeyed reviews.
   */
  public List<UUID> ledgerIds() {
    return ledgerIds;
  }

  /**
   * The counter deltas of the reviews whose ledger IDs are in {@code newLedgerIds} (those the
   * ledger had not seen: a review's event ID, or its message's ID for all its unkeyed reviews), one
   * per album, ascending by album ID. Reviews not in the set were applied before and change
   * nothing; IDs in the set that this batch does not hold are ignored.
   */
  List<AlbumDelta> deltasFor(Collection<UUID> newLedgerIds) {
    Map<String, long[]> perAlbum = new TreeMap<>();
    Map<String, Long> latest = new HashMap<>();
    // A set: an ID listed twice must still count once.
    for (UUID id : new HashSet<>(newLedgerIds)) {
      Review r = reviewsById.get(id);
      if (r != null) {
        boolean like = r.vote() == Vote.LIKE;
        count(perAlbum, r.albumId(), like ? 1 : 0, like ? 0 : 1);
      } else {
        for (AlbumVotes v : unkeyedByMessage.getOrDefault(id, List.of())) {
          count(perAlbum, v.albumId(), v.likes(), v.dislikes());
        }
      }
      reviewTimes
          .getOrDefault(id, Map.of())
          .forEach((album, t) -> latest.merge(album, t, Math::max));
    }
    List<AlbumDelta> deltas = new ArrayList<>(perAlbum.size());
    perAlbum.forEach(
        (album, c) -> deltas.add(new AlbumDelta(album, c[0], c[1], latest.get(album))));
    return deltas;
  }

  private static void count(
      Map<String, long[]> perAlbum, String albumId, long likes, long dislikes) {
    long[] counts = perAlbum.computeIfAbsent(albumId, k -> new long[2]);
    counts[0] += likes;
    counts[1] += dislikes;
  }
}
