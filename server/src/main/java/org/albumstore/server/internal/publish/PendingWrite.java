package org.albumstore.server.internal.publish;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;

/**
 * One HTTP request's write on its way to the broker, with the future its response waits for.
 *
 * <p>The future completes normally only after the broker confirmed the message that carried this
 * write, and exceptionally ({@link WriteRejectedException}) otherwise: that is the whole contract
 * between the servlets and the publisher.
 */
public final class PendingWrite {
  /** JSON field names, quotes and separators of one review in a bundle's body. */
  private static final int REVIEW_OVERHEAD = 100;

  /** JSON field names of one album plus its profile, before the variable-length values. */
  private static final int ALBUM_OVERHEAD = 120;

  private final NewAlbum album;
  private final Review review;
  private final int estimatedBytes;
  private final long enqueuedNanos;
  private final long acceptedAtMillis;
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  private PendingWrite(
      NewAlbum album,
      Review review,
      int estimatedBytes,
      long enqueuedNanos,
      long acceptedAtMillis) {
    this.album = album;
    this.review = review;
    this.estimatedBytes = estimatedBytes;
    this.enqueuedNanos = enqueuedNanos;
    this.acceptedAtMillis = acceptedAtMillis;
  }

  /** A review accepted now, by this machine's wall clock. */
  public static PendingWrite of(Review review, long nowNanos) {
    return of(review, nowNanos, System.currentTimeMillis());
  }

  /**
   * A review the server accepted at {@code acceptedAtMillis} (epoch milliseconds): the time a
   * version 3 message carries for its album ({@code WriteBundle#reviewedAt}).
   */
  public static PendingWrite of(Review review, long nowNanos, long acceptedAtMillis) {
    Objects.requireNonNull(review, "review");
    // Its album ID twice (as a review or a count, and as a review time) and a time of 13 digits.
    int bytes = REVIEW_OVERHEAD + 2 * review.albumId().length() + 36 + 13;
    return new PendingWrite(null, review, bytes, nowNanos, acceptedAtMillis);
  }

  public static PendingWrite of(NewAlbum album, long nowNanos) {
    Objects.requireNonNull(album, "album");
    long base64 = 4L * ((album.image().length + 2) / 3);
    // Up to 3 UTF-8 bytes per char; control characters (escaped longer) are rejected earlier.
    long text =
        3L
            * (album.profile().artist().length()
                + album.profile().title().length()
                + album.profile().year().length());
    long bytes = ALBUM_OVERHEAD + album.albumId().length() + base64 + text;
    return new PendingWrite(album, null, (int) Math.min(Integer.MAX_VALUE, bytes), nowNanos, 0);
  }

  /** The album this write creates, or null for a review. */
  public NewAlbum album() {
    return album;
  }

  /** The review this write records, or null for an album. */
  public Review review() {
    return review;
  }

  /** An upper estimate of this write's share of the message body, in bytes. */
  public int estimatedBytes() {
    return estimatedBytes;
  }

  public long enqueuedNanos() {
    return enqueuedNanos;
  }

  /** When the server accepted this review, in epoch milliseconds; 0 for an album. */
  public long acceptedAtMillis() {
    return acceptedAtMillis;
  }

  /**
   * What must not appear twice in one message: an album ID (one INSERT cannot insert a key twice)
   * or a keyed review's event ID (it would be counted twice within one bundle). Equal keys come
   * from concurrent retries with one Idempotency-Key; they simply go into different messages. Null
   * for an unkeyed review, which has no event ID and no limit: any number share a message.
   */
  public String dedupKey() {
    if (album != null) {
      return "a:" + album.albumId();
    }
    return review.eventId() != null ? "r:" + review.eventId() : null;
  }

  /** Completes when the broker confirmed this write, or fails with the reason it was not. */
  public CompletableFuture<Void> done() {
    return done;
  }

  void confirmed() {
    done.complete(null);
  }

  void reject(WriteRejectedException reason) {
    done.completeExceptionally(reason);
  }
}
