package org.albumstore.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
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
 *     message's unkeyed reviews (see {@link Review}). Null in messages of servers that predate it;
 *     then every review is recorded by its own event ID. Optional within version 1: consumers that
 *     do not know it ignore it and still apply every review exactly once by its event ID.
 */
public record WriteBundle(
    int version,
    long publishedAtMillis,
    @JsonInclude(JsonInclude.Include.NON_NULL) UUID id,
    List<NewAlbum> albums,
    List<Review> reviews) {

  public WriteBundle {
    albums = albums == null ? List.of() : List.copyOf(albums);
    reviews = reviews == null ? List.of() : List.copyOf(reviews);
  }

  /** A bundle without a message ID: every review is recorded by its event ID. */
  public WriteBundle(
      int version, long publishedAtMillis, List<NewAlbum> albums, List<Review> reviews) {
    this(version, publishedAtMillis, null, albums, reviews);
  }

  public int size() {
    return albums.size() + reviews.size();
  }
}
