package org.albumstore.common.event;

import java.util.List;

/**
 * The body of one broker message: the writes of one or more HTTP requests that were published
 * together and confirmed by one publisher confirm (group commit). A request's 200 is sent only
 * after the confirm of the batch that holds it.
 *
 * @param version the body's schema version; a consumer dead-letters versions it does not know
 * @param publishedAtMillis wall-clock time of publishing, for time-in-queue measurements
 */
public record WriteBatch(
    int version, long publishedAtMillis, List<NewAlbum> albums, List<Review> reviews) {

  public WriteBatch {
    albums = albums == null ? List.of() : List.copyOf(albums);
    reviews = reviews == null ? List.of() : List.copyOf(reviews);
  }

  public int size() {
    return albums.size() + reviews.size();
  }
}
