package org.albumstore.server.internal.web;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a request path (relative to the context, e.g. {@code /review/like/42}) points: which
 * resource, and the raw path parameters. Only the shape is checked here; the values are validated
 * by {@link RequestChecks} after the method, so that a wrong method on a known path is 405 even
 * when its parameters are wrong too.
 *
 * @param resource which resource, or {@link Resource#UNKNOWN}
 * @param params the path parameters in path order, undecoded beyond what the container did
 */
record Route(Resource resource, List<String> params) {

  /** The API's resources and the one method each accepts. */
  public enum Resource {
    /** {@code /albums} (or {@code /albums/}): POST a new album. */
    ALBUMS("POST"),
    /** {@code /albums/{albumID}}: GET its profile. */
    ALBUM("GET"),
    /** {@code /review/{likeornot}/{albumID}}: POST a vote. */
    VOTE("POST"),
    /** {@code /review/{albumID}}: GET the counts. */
    REVIEW_COUNTS("GET"),
    /** {@code /health}: GET whether this server takes requests (readiness). */
    HEALTH("GET"),
    /** {@code /health/live}: GET whether the process answers at all (liveness). */
    LIVENESS("GET"),
    UNKNOWN(null);

    private final String method;

    Resource(String method) {
      this.method = method;
    }

    /** The one method this resource serves (the {@code Allow} header of a 405). */
    public String method() {
      return method;
    }
  }

  public Route {
    params = List.copyOf(params);
  }

  public static Route parse(String path) {
    List<String> s = segments(path);
    if (s.isEmpty()) {
      return unknown();
    }
    int n = s.size();
    switch (s.get(0)) {
      case "albums":
        if (n == 1 || (n == 2 && s.get(1).isEmpty())) {
          return new Route(Resource.ALBUMS, List.of());
        }
        return n == 2 ? new Route(Resource.ALBUM, s.subList(1, 2)) : unknown();
      case "review":
        if (n == 2 && !s.get(1).isEmpty()) {
          return new Route(Resource.REVIEW_COUNTS, s.subList(1, 2));
        }
        return n == 3 ? new Route(Resource.VOTE, s.subList(1, 3)) : unknown();
      case "health":
        if (n == 2 && s.get(1).equals("live")) {
          return new Route(Resource.LIVENESS, List.of());
        }
        return n == 1 ? new Route(Resource.HEALTH, List.of()) : unknown();
      default:
        return unknown();
    }
  }

  private static Route unknown() {
    return new Route(Resource.UNKNOWN, List.of());
  }

  /**
   * Splits {@code /a/b/} into {@code [a, b, ""]}: empty segments are kept so that {@code
   * /review/like/} is a vote with an empty (hence invalid, 400) album ID, not a different path.
   */
  static List<String> segments(String path) {
    if (path == null || path.isEmpty() || path.equals("/")) {
      return List.of();
    }
    String p = path.charAt(0) == '/' ? path.substring(1) : path;
    List<String> out = new ArrayList<>(4);
    int start = 0;
    for (int i = 0; i <= p.length(); i++) {
      if (i == p.length() || p.charAt(i) == '/') {
        out.add(p.substring(start, i));
        start = i + 1;
        if (out.size() > 8) {
          break; // deeper than any route: unknown anyway
        }
      }
    }
    return out;
  }
}
