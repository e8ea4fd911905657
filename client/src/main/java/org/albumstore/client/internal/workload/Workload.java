package org.albumstore.client.internal.workload;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What one writer iteration does ({@code --workload}).
 *
 * <ul>
 *   <li>{@link #ALBUM_REVIEWS} (default): {@code POST /albums}, then two {@code POST
 *       /review/like/{id}} and one {@code POST /review/dislike/{id}} on the new album;
 *   <li>{@link #POST_GET}: the course's assignment-2 workload, {@code POST /albums} then at once
 *       {@code GET /albums/{id}} of the album just created; it needs the server's read-your-writes
 *       (a GET that came too early would be a 404, retried, and counted as a failure after the
 *       retries).
 *   <li>{@link #REVIEWS}: {@code POST /review} only (what a review costs without the album's
 *       insert): each iteration two {@code POST /review/like/{id}} and one {@code POST
 *       /review/dislike/{id}} on an album ID of its own that no {@code POST /albums} created (the
 *       iteration's idempotency-key stem, valid as the spec's client-numbered IDs are), so the
 *       verification compares its counts as for the default.
 * </ul>
 */
public enum Workload {
  ALBUM_REVIEWS("album-reviews"),
  POST_GET("post-get"),
  REVIEWS("reviews");

  private final String cliName;

  Workload(String cliName) {
    this.cliName = cliName;
  }

  /** The name on the command line and in the report. */
  public String cliName() {
    return cliName;
  }

  /**
   * @throws IllegalArgumentException naming the choices for an unknown name
   */
  public static Workload fromCliName(String name) {
    for (Workload w : values()) {
      if (w.cliName.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return w;
      }
    }
    throw new IllegalArgumentException(
        "--workload must be one of " + choices() + ", was '" + name + "'");
  }

  /** E.g. {@code album-reviews, post-get}. */
  public static String choices() {
    return Arrays.stream(values()).map(Workload::cliName).collect(Collectors.joining(", "));
  }
}
