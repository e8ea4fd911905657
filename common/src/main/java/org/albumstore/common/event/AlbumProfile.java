package org.albumstore.common.event;

/**
 * The {@code profile} part of {@code POST /albums}: what {@code GET /albums/{albumID}} returns.
 * Every field is a string, as the API declares.
 */
public record AlbumProfile(String artist, String title, String year) {

  /** Longest artist or title accepted, in characters (code points). */
  public static final int MAX_TEXT = 255;

  /**
   * Why this profile cannot be stored, in words a user can act on, or null when it can. The server
   * answers 400 with it; the consumer dead-letters a message whose profile fails it.
   */
  public String problem() {
    String p = textProblem("artist", artist);
    if (p == null) {
      p = textProblem("title", title);
    }
    if (p == null) {
      if (year == null || year.isBlank()) {
        p = "profile.year is required";
      } else if (!isYear(year)) {
        p = "profile.year must be a year of 1 to 4 digits, e.g. 1977, was '" + shorten(year) + "'";
      }
    }
    return p;
  }

  /** 1 to 4 ASCII digits. */
  private static boolean isYear(String s) {
    if (s.isEmpty() || s.length() > 4) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static String textProblem(String field, String value) {
    if (value == null || value.isBlank()) {
      return "profile." + field + " is required";
    }
    if (value.codePointCount(0, value.length()) > MAX_TEXT) {
      return "profile." + field + " must be at most " + MAX_TEXT + " characters";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == 0 || (Character.isISOControl(c) && c != '\t')) {
        return "profile." + field + " must not contain control characters";
      }
    }
    return null;
  }

  private static String shorten(String s) {
    return s.length() <= 20 ? s : s.substring(0, 20) + "...";
  }
}
