package org.albumstore.faults.battery;

import java.util.List;
import org.albumstore.faults.battery.Case.Expect;

/**
 * Reads, wrong methods and strange paths: each resource with every method it does not serve, reads
 * of unknown and malformed IDs, and paths no resource serves, in many shapes.
 */
final class PathCases {
  private static final String CONTEXT = ReviewCases.CONTEXT;

  private final Texts t;
  private final ReviewCases ids;

  PathCases(Texts t, ReviewCases ids) {
    this.t = t;
    this.ids = ids;
  }

  /** Every resource with a method it does not serve: 405 (HEAD: no body to check). */
  Case wrongMethod() {
    String id = t.token(t.between(1, 64));
    String[][] resources = {
      {"/albums", "POST"}, {"/albums/" + id, "GET"}, {"/review/like/" + id, "POST"},
      {"/review/dislike/" + id, "POST"}, {"/review/" + id, "GET"}, {"/health", "GET"}
    };
    String[] res = resources[t.between(0, resources.length - 1)];
    String method;
    do {
      method =
          t.pick(
              List.of(
                  "GET",
                  "POST",
                  "PUT",
                  "DELETE",
                  "PATCH",
                  "OPTIONS",
                  "HEAD",
                  "TRACE",
                  "FOO",
                  "post",
                  "PROPFIND"));
    } while (method.equals(res[1]) || (method.equals("HEAD") && res[1].equals("GET")));
    RawRequest r = new RawRequest(method, CONTEXT + res[0]);
    if (t.chance(0.3)) {
      r.body(t.bytes(t.between(1, 500))).header("Content-Type", "application/octet-stream");
    }
    return Case.of("wrong-method", r, Expect.is(405), null);
  }

  /** Reads: unknown albums are 404, malformed IDs 400, health 200. */
  Case read() {
    int kind = t.between(0, 4);
    return switch (kind) {
      case 0 ->
          Case.of(
              "read-unknown-album",
              new RawRequest("GET", CONTEXT + "/albums/" + ids.uniqueId()),
              Expect.is(404),
              null);
      case 1 ->
          Case.of(
              "read-unknown-counts",
              new RawRequest("GET", CONTEXT + "/review/" + ids.uniqueId()),
              Expect.is(404),
              null);
      case 2 ->
          Case.of(
              "read-bad-id",
              new RawRequest(
                  "GET",
                  CONTEXT
                      + t.pick(List.of("/albums/", "/review/"))
                      + t.pick(
                          List.of("a.b", "x".repeat(65), "%20", "a%2Fb", "ä", "%C3%A4", "a!"))),
              Expect.is(400),
              null);
      case 3 ->
          Case.of(
              "read-head-health",
              new RawRequest("HEAD", CONTEXT + "/health"),
              Expect.is(200, 405),
              null);
      default ->
          Case.of("read-health", new RawRequest("GET", CONTEXT + "/health"), Expect.is(200), null);
    };
  }

  /** Paths no resource serves, in many shapes: 4xx, never a write. */
  Case unknownPath() {
    String method = t.chance(0.5) ? "POST" : "GET";
    int kind = t.between(0, 6);
    String target =
        switch (kind) {
          case 0 ->
              CONTEXT
                  + "/"
                  + t.pick(
                      List.of(
                          "",
                          "x",
                          "Albums",
                          "REVIEW/like/1",
                          "albums/a/b",
                          "review",
                          "review/like",
                          "health/x",
                          "albums//",
                          "index.html",
                          "WEB-INF/web.xml",
                          "META-INF/MANIFEST.MF"));
          case 1 ->
              "/"
                  + t.pick(
                      List.of(
                          "",
                          "albums",
                          "review/like/1",
                          "manager/html",
                          "albumstore2/albums",
                          "favicon.ico"));
          case 2 -> CONTEXT + "/" + randomSegments();
          case 3 -> CONTEXT + "/albums/" + "a".repeat(t.between(65, 7000));
          case 4 ->
              CONTEXT
                  + "/"
                  + t.pick(
                      List.of(
                          "..",
                          "../..",
                          "%2e%2e/%2e%2e",
                          "albums/../../x",
                          "./x",
                          "%00",
                          "%2F",
                          "a%5Cb",
                          "..;/x",
                          "albums/%2e%2e/x"));
          case 5 -> CONTEXT + "/" + Texts.rawUtf8(t.pick(List.of("ä", "日本/語", "🎸")));
          default -> CONTEXT + "/x" + "y".repeat(t.between(8200, 12000)); // beyond the header limit
        };
    return Case.of("unknown-path", new RawRequest(method, target), Expect.any4xx(), null);
  }

  private String randomSegments() {
    StringBuilder b = new StringBuilder();
    int n = t.between(1, 6);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        b.append('/');
      }
      b.append("z"); // never a resource name, whatever follows
      for (int k = t.between(0, 12); k > 0; k--) {
        b.append(
            t.chance(0.2)
                ? "%" + String.format("%02X", t.between(0x21, 0xff))
                : t.from(Texts.TOKEN_CHARS + Texts.NON_TOKEN_TARGET_CHARS, 1));
      }
    }
    return b.toString();
  }
}
