package org.albumstore.client.internal.http;

/**
 * What {@code GET /review/{albumID}} said.
 *
 * @param status whether the counts were read
 * @param likes valid when {@code status == FOUND}
 * @param dislikes valid when {@code status == FOUND}
 * @param code the last status code or exception name, for messages
 */
public record ReviewCounts(Status status, long likes, long dislikes, String code) {
  public enum Status {
    FOUND,
    /** 404: the album is not (yet) visible. */
    NOT_FOUND,
    /** Any other failure: no answer, another status, or an unreadable body. */
    FAILED
  }

  public static ReviewCounts found(long likes, long dislikes) {
    return new ReviewCounts(Status.FOUND, likes, dislikes, "200");
  }

  public static ReviewCounts notFound() {
    return new ReviewCounts(Status.NOT_FOUND, 0, 0, "404");
  }

  public static ReviewCounts failed(String code) {
    return new ReviewCounts(Status.FAILED, 0, 0, code);
  }
}
