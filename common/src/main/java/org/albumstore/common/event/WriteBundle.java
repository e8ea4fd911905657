package org.albumstore.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The body of one broker message: the writes of one or more HTTP requests that were published
 * together and confirmed by one publisher confirm (group commit). A request's 200 is sent only
 * after the confirm of the bundle that holds it.
 *
 * <p>Words: a <em>bundle</em> is this, one broker message of many writes (the server's group
 * commit); a <em>batch</em> is the consumer's, many messages applied in one transaction.
 *
 * @param version the body's schema version; a consumer dead-letters versions it does not know
 * @param publishedAtMillis wall-clock time of publishing, for time-in-queue measurements
 * @param id unique per message, also its AMQP {@code messageId}: the consumer's ledger key for the
 *     message's unkeyed reviews and votes (see {@link Review}). Null in messages of servers that
 *     predate it; then every review is recorded by its own event ID. Optional within version 1:
 *     consumers that do not know it ignore it and still apply every review exactly once by its
 *     event ID. Required when {@code votes} is not empty.
 * @param albums albums to insert
 * @param reviews reviews that travel one by one with their event IDs: every keyed review, and the
 *     unkeyed ones of version 1 messages
 * @param votes version 2 only: the message's unkeyed reviews counted per album, applied exactly
 *     once under the message's {@code id}. A version 1 consumer would ignore the field and lose
 *     them, which is why it needs the new version number: such a consumer dead-letters the message
 *     instead.
 * @param reviewedAt version 3 only: per album reviewed in this message (one by one or counted), the
 *     latest time, in epoch milliseconds, at which a server accepted one of its reviews; the
 *     consumer keeps each album's latest in {@code album_reviews.last_review_at}. A version 2
 *     consumer would ignore the field and lose the times: such a consumer dead-letters the message.
 */
public record WriteBundle(
    int version,
    long publishedAtMillis,
    @JsonInclude(JsonInclude.Include.NON_NULL) UUID id,
    List<NewAlbum> albums,
    List<Review> reviews,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<AlbumVotes> votes,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> reviewedAt) {

  public WriteBundle {
    albums = albums == null ? List.of() : List.copyOf(albums);
    reviews = reviews == null ? List.of() : List.copyOf(reviews);
    votes = votes == null ? List.of() : List.copyOf(votes);
    // Insertion order kept (the albums' first appearance), so that a body encodes the same way
    // twice; Map.copyOf would not keep it.
    reviewedAt =
        reviewedAt == null || reviewedAt.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(reviewedAt));
  }

  /** A bundle without review times (versions 1 and 2). */
  public WriteBundle(
      int version,
      long publishedAtMillis,
      UUID id,
      List<NewAlbum> albums,
      List<Review> reviews,
      List<AlbumVotes> votes) {
    this(version, publishedAtMillis, id, albums, reviews, votes, Map.of());
  }

  /** A bundle whose reviews all travel one by one. */
  public WriteBundle(
      int version, long publishedAtMillis, UUID id, List<NewAlbum> albums, List<Review> reviews) {
    this(version, publishedAtMillis, id, albums, reviews, List.of());
  }

  /** A bundle without a message ID: every review is recorded by its event ID. */
  public WriteBundle(
      int version, long publishedAtMillis, List<NewAlbum> albums, List<Review> reviews) {
    this(version, publishedAtMillis, null, albums, reviews, List.of());
  }

  /** The writes this message carries: its albums and all its reviews, counted or not. */
  public int size() {
    long n = (long) albums.size() + reviews.size();
    for (AlbumVotes v : votes) {
      n += v.reviews();
    }
    return (int) Math.min(Integer.MAX_VALUE, n);
  }
}
