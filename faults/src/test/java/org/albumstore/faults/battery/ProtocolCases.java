package org.albumstore.faults.battery;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.albumstore.common.event.Vote;
import org.albumstore.faults.battery.Case.Delivery;
import org.albumstore.faults.battery.Case.Expect;
import org.albumstore.faults.battery.Case.Write;
import org.albumstore.faults.harness.Multipart;

/**
 * The protocol around the request: headers (many, huge, illegal, non-ASCII, conflicting lengths),
 * HTTP versions, request-line garbage, and bodies that arrive slowly, end early, or never.
 */
final class ProtocolCases {
  private final Texts t;
  private final AlbumCases albums;
  private final String runId;
  private int serial;

  ProtocolCases(Texts t, AlbumCases albums, String runId) {
    this.t = t;
    this.albums = albums;
    this.runId = runId;
  }

  private String uniqueId() {
    return runId + "-p" + (serial++);
  }

  private RawRequest vote(String id) {
    return new RawRequest("POST", ReviewCases.CONTEXT + "/review/like/" + id);
  }

  /** Header-level variations on a valid vote. */
  Case headers() {
    String id = uniqueId();
    Write w = Write.review(id, Vote.LIKE);
    int kind = t.between(0, 15);
    return switch (kind) {
      case 0 -> {
        RawRequest r = vote(id);
        for (int i = t.between(10, 60); i > 0; i--) {
          r.header("X-Fuzz-" + i, t.from(Texts.TOKEN_CHARS + " ;,=/", t.between(0, 80)));
        }
        yield Case.of("headers-many", r, Expect.is(200), w);
      }
      case 1 ->
          Case.of(
              "headers-non-ascii-value",
              vote(id).header("X-Note", Texts.rawUtf8(t.text(20))),
              Expect.is(200),
              w);
      case 2 ->
          Case.of(
              "headers-too-large",
              vote(id).header("X-Big", "b".repeat(t.between(9000, 20000))),
              Expect.any4xx(),
              w);
      case 3 ->
          Case.of(
              "headers-illegal-name",
              vote(id).header(t.pick(List.of("Bad Header", "Ä", "X-(x)", "X-Bad\u0001")), "v"),
              Expect.any4xx(),
              w);
      case 4 -> Case.of("headers-no-host", vote(id).noHost(), Expect.is(400), w);
      case 5 -> Case.of("headers-http10", vote(id).noHost().version("HTTP/1.0"), Expect.is(200), w);
      case 6 ->
          Case.of(
              "headers-bad-content-length",
              vote(id)
                  .noContentLength()
                  .header(
                      "Content-Length",
                      t.pick(List.of("abc", "-1", "1.5", "99999999999999999999", "1, 2"))),
              Expect.is(400),
              w);
      case 7 ->
          Case.of(
              "headers-length-and-chunked",
              vote(id)
                  .body("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1))
                  .header("Transfer-Encoding", "chunked"),
              // HTTP lets a server reject both lengths or let chunked win (RFC 9112, 6.3).
              Expect.is(200, 400),
              w);
      case 8 ->
          Case.of(
              "headers-unknown-transfer-encoding",
              vote(id)
                  .noContentLength()
                  .header("Transfer-Encoding", t.pick(List.of("gzip", "x-fuzz", "identity"))),
              // RFC 9112, 6.1: a transfer coding the server does not know SHOULD get 501.
              Expect.is(501).orAny4xx(),
              w);
      case 9 ->
          Case.of(
              "headers-bad-version",
              vote(id)
                  .version(
                      t.pick(
                          List.of(
                              "HTTP/1.2",
                              "HTTP/2.0",
                              "HTTP/9.9",
                              "HTTP/1.1x",
                              "http/1.1",
                              "HTTP/"))),
              // An unsupported major version is 505 in HTTP; a malformed one 400, or a close.
              Expect.is(505).orAny4xx().orClose(),
              w);
      case 10 ->
          Case.of(
              "headers-expect-continue",
              vote(id).header("Expect", "100-continue").body(t.bytes(10)),
              Expect.is(200),
              w);
      case 11 ->
          Case.of(
              "headers-expect-unknown",
              vote(id).header("Expect", "x-magic"),
              Expect.any4xxOr200(),
              w);
      case 12 ->
          Case.of(
              "headers-bad-chunked-body",
              vote(id)
                  .noContentLength()
                  .header("Transfer-Encoding", "chunked")
                  .body(
                      t.pick(
                              List.of(
                                  "zz\r\nabc\r\n0\r\n\r\n", "5\r\nab\r\n0\r\n\r\n", "-1\r\n\r\n"))
                          .getBytes(StandardCharsets.ISO_8859_1)),
              Expect.any4xxOr200().orClose(),
              w);
      case 13 ->
          Case.of(
              "headers-content-type-garbage",
              vote(id)
                  .header("Content-Type", t.from(Texts.TOKEN_CHARS + ";=/ \"", t.between(1, 60))),
              Expect.is(200),
              w);
      case 14 ->
          Case.of(
              "headers-request-line-garbage",
              new RawRequest(
                  t.pick(List.of("GET\u0001", "G E T", "", "\u00ff\u00fe")),
                  ReviewCases.CONTEXT + "/health"),
              Expect.any4xx().orClose(),
              null);
      default ->
          Case.of(
              "headers-absolute-form",
              new RawRequest(
                  "POST", "http://127.0.0.1" + ReviewCases.CONTEXT + "/review/like/" + id),
              Expect.is(200),
              w);
    };
  }

  /** A valid album dripped in pieces: must still be a 200. */
  Case slow() {
    Case c = albums.valid();
    return new Case("slow-body", c.request(), Delivery.SLOW, -1, c.expect(), c.write());
  }

  /**
   * A body that ends before its Content-Length says (the client half-closes): a 400 or a closed
   * connection, never a write. The cut always falls before the closing boundary, so the upload is
   * incomplete whatever the parser makes of the rest.
   */
  Case truncated() {
    if (t.chance(0.5)) {
      byte[] body =
          Multipart.album(t.bytes(t.between(100, 5000)), Multipart.jsonProfile("a", "t", "1"));
      RawRequest r =
          new RawRequest("POST", AlbumCases.PATH)
              .header("Content-Type", Multipart.CONTENT_TYPE)
              .body(body);
      return new Case(
          "truncated-body",
          r,
          Delivery.TRUNCATED,
          r.head().length + t.between(0, body.length - 30),
          Expect.is(400).orClose(),
          Write.album(null, -1));
    }
    RawRequest r = vote(uniqueId());
    int headLength = r.head().length;
    return new Case(
        "truncated-head",
        r,
        Delivery.TRUNCATED,
        t.between(1, headLength - 3),
        Expect.any4xx().orClose(),
        null);
  }

  /**
   * A client that sends part of a request and vanishes: nothing to check but the server's health.
   */
  Case abandoned() {
    Case c = albums.valid();
    int all = c.request().head().length + c.request().wireBody().length;
    return new Case(
        "abandoned",
        c.request(),
        Delivery.ABANDONED,
        t.between(1, all - 30),
        Expect.any4xx().orClose(),
        c.write());
  }
}
