package org.albumstore.client.internal.verify;

import org.albumstore.client.internal.http.ReviewCounts;

/** Compares what the server reports for one album with what the client was acknowledged. */
final class CountCheck {
  private CountCheck() {}

  /**
   * @return null when the counts agree, else what is wrong in words
   */
  public static String problem(ExpectedCounts expected, ReviewCounts observed) {
    switch (observed.status()) {
      case NOT_FOUND:
        return "not found (404)";
      case FAILED:
        return "could not read the counts (" + observed.code() + ")";
      default:
        break;
    }
    String likes =
        outOfRange("likes", observed.likes(), expected.ackedLikes(), expected.maxLikes());
    String dislikes =
        outOfRange(
            "dislikes", observed.dislikes(), expected.ackedDislikes(), expected.maxDislikes());
    if (likes == null && dislikes == null) {
      return null;
    }
    return likes == null ? dislikes : dislikes == null ? likes : likes + ", " + dislikes;
  }

  private static String outOfRange(String what, long actual, int min, int max) {
    if (actual >= min && actual <= max) {
      return null;
    }
    String want = min == max ? Integer.toString(min) : min + " to " + max;
    return what + " " + actual + " (expected " + want + ")";
  }
}
