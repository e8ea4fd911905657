package org.albumstore.faults.battery;

import java.util.List;
import org.albumstore.common.event.Vote;
import org.albumstore.faults.battery.Case.Expect;
import org.albumstore.faults.battery.Case.Write;

/**
 * {@code POST /review/{likeornot}/{albumID}}: valid votes on album IDs of every legal shape (and
 * every legal way to spell them in a request target), and IDs and likeornot values that are wrong
 * in every way.
 */
final class ReviewCases {
  static final String CONTEXT = "/albumstore";

  private final Texts t;
  private final String runId;
  private int serial;

  ReviewCases(Texts t, String runId) {
    this.t = t;
    this.runId = runId;
  }

  /** A fresh valid album ID, unique in this run so that each 200 maps to one queued review. */
  String uniqueId() {
    String id = runId + "-" + (serial++) + "-";
    return id + t.token(t.between(1, Math.max(1, 64 - id.length())));
  }

  private static String wire(Vote v) {
    return v == Vote.LIKE ? "like" : "dislike";
  }

  /**
   * A valid vote, 200: plain, with a key, percent-encoded ID characters, a query, a path parameter,
   * doubled slashes or a body.
   */
  Case valid() {
    Vote v = t.chance(0.6) ? Vote.LIKE : Vote.DISLIKE;
    String id = uniqueId();
    int shape = t.between(0, 9);
    // Shape 5: doubled slashes, which the container merges before routing.
    String target =
        shape == 5 ? CONTEXT + "//review//" + wire(v) + "//" : CONTEXT + "/review/" + wire(v) + "/";
    String path = shape == 0 ? Texts.percentEncodeAll(id) : id;
    if (shape == 1) {
      path = path + "?x=" + t.token(5) + "&likeornot=dislike";
    }
    if (shape == 2) {
      path = path + ";jsessionid=" + t.token(8); // a path parameter, which the container strips
    }
    RawRequest r = new RawRequest("POST", target + path);
    if (t.chance(0.5)) {
      r.header("Idempotency-Key", t.token(t.between(1, 64)));
    }
    if (shape == 3) {
      r.body(t.bytes(t.between(1, 2000))).header("Content-Type", "application/octet-stream");
    }
    if (shape == 4) {
      r.header("Content-Type", "application/json").body("{\"likes\":99}".getBytes());
    }
    return Case.of("review-valid", r, Expect.is(200), Write.review(id, v));
  }

  /** A vote that must be refused. */
  Case invalid() {
    Vote v = t.chance(0.5) ? Vote.LIKE : Vote.DISLIKE;
    String id = uniqueId();
    Write w = Write.review(id, v);
    String base = CONTEXT + "/review/";
    int kind = t.between(0, 11);
    return switch (kind) {
      case 0 ->
          Case.of(
              "review-bad-likeornot",
              new RawRequest(
                  "POST",
                  base
                      + t.pick(
                          List.of(
                              "LIKE",
                              "Like",
                              "likes",
                              "love",
                              "dis-like",
                              "0",
                              "true",
                              "%20like",
                              "like%20",
                              "lik%C3%A9"))
                      + "/"
                      + id),
              Expect.is(400),
              w);
      case 1 ->
          Case.of(
              "review-id-too-long",
              new RawRequest("POST", base + wire(v) + "/" + t.token(t.between(65, 300))),
              Expect.is(400),
              w);
      case 2 ->
          Case.of(
              "review-id-bad-char",
              new RawRequest(
                  "POST",
                  base
                      + wire(v)
                      + "/"
                      + t.token(3)
                      + t.from(Texts.NON_TOKEN_TARGET_CHARS, t.between(1, 4))
                      + t.token(2)),
              Expect.is(400),
              w);
      case 3 ->
          Case.of(
              "review-id-encoded-non-token",
              new RawRequest(
                  "POST",
                  base
                      + wire(v)
                      + "/"
                      + t.token(2)
                      + t.pick(
                          List.of(
                              "%20",
                              "%C3%A4",
                              "%2E",
                              "%E2%82%AC",
                              "%F0%9F%8E%B8",
                              "%7E",
                              "%27",
                              "%22",
                              "%3C",
                              "%25"))),
              Expect.is(400),
              w);
      case 4 ->
          Case.of(
              "review-id-encoded-separator",
              new RawRequest(
                  "POST",
                  base
                      + wire(v)
                      + "/"
                      + t.token(2)
                      + t.pick(List.of("%2F", "%2f", "%5C", "%00", "%0A", "%0D"))
                      + t.token(2)),
              Expect.is(400),
              w);
      case 5 ->
          Case.of(
              "review-id-bad-escape",
              new RawRequest(
                  "POST",
                  base
                      + wire(v)
                      + "/"
                      + t.token(2)
                      + t.pick(List.of("%", "%4", "%zz", "%G1", "%C3", "%C3%28", "%FF%FE"))),
              Expect.is(400),
              w);
      case 6 ->
          Case.of(
              "review-id-raw-utf8",
              new RawRequest(
                  "POST",
                  base + wire(v) + "/" + Texts.rawUtf8(t.pick(List.of("ä", "日本", "🎸", "é1")))),
              Expect.is(400),
              w);
      case 7 ->
          Case.of(
              "review-id-empty", new RawRequest("POST", base + wire(v) + "/"), Expect.is(400), w);
      case 8 ->
          Case.of(
              "review-extra-segment",
              new RawRequest("POST", base + wire(v) + "/" + id + "/" + t.token(3)),
              Expect.is(404),
              w);
      case 9 ->
          Case.of(
              "review-bad-key",
              new RawRequest("POST", base + wire(v) + "/" + id)
                  .header(
                      "Idempotency-Key",
                      t.pick(List.of("", " ", "a b", "x".repeat(65), "ключ", "a/b", "k;k", "*"))),
              Expect.is(400),
              w);
      case 10 ->
          Case.of(
              "review-two-keys",
              new RawRequest("POST", base + wire(v) + "/" + id)
                  .header("Idempotency-Key", "a")
                  .header("Idempotency-Key", "b"),
              Expect.is(400),
              w);
      default ->
          Case.of(
              "review-no-likeornot", new RawRequest("POST", base + "/" + id), Expect.any4xx(), w);
    };
  }
}
