package org.albumstore.faults.battery;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.albumstore.common.event.Identifiers;
import org.albumstore.faults.battery.Case.Expect;
import org.albumstore.faults.battery.Case.Write;
import org.albumstore.faults.harness.Multipart;

/**
 * {@code POST /albums} in every shape: valid uploads (both profile forms, many scripts, charsets,
 * image sizes up to the limit, chunked, with {@code Expect: 100-continue}) and every way to get one
 * wrong (content type, boundary, parts, sizes, profile, encoding, key).
 */
final class AlbumCases {
  static final String PATH = "/albumstore/albums";

  private final Texts t;
  private final int maxImage;

  AlbumCases(Texts t, int maxImage) {
    this.t = t;
    this.maxImage = maxImage;
  }

  private RawRequest post(byte[] body, String contentType) {
    RawRequest r = new RawRequest("POST", PATH).body(body);
    if (contentType != null) {
      r.header("Content-Type", contentType);
    }
    return r;
  }

  /** A valid upload, 200, with or without a key. */
  Case valid() {
    int size = t.chance(0.02) ? maxImage : t.between(1, 6000);
    byte[] image = t.bytes(size);
    Multipart m = new Multipart();
    if (t.chance(0.7)) {
      m.file(
          "image",
          t.pick(List.of("cover.png", "a.jpg", "x", "ü.gif")),
          t.pick(List.of("image/png", "image/jpeg", "application/octet-stream")),
          image);
    } else {
      m.field("image", image, t.chance(0.5) ? "image/png" : null);
    }
    String profile = t.profile();
    String charset = t.pick(List.of("none", "UTF-8", "utf-8", "ISO-8859-1", "UTF-16"));
    Charset cs = charset.equals("none") ? StandardCharsets.UTF_8 : Charset.forName(charset);
    if (!cs.newEncoder().canEncode(profile)) {
      cs = StandardCharsets.UTF_8;
      charset = "UTF-8";
    }
    m.field(
        "profile",
        profile.getBytes(cs),
        charset.equals("none")
            ? null
            : t.pick(List.of("text/plain", "application/json")) + "; charset=" + charset);
    RawRequest r = post(m.build(), Multipart.CONTENT_TYPE);
    String keyId = null;
    if (t.chance(0.5)) {
      String key = t.token(t.between(1, 64));
      r.header("Idempotency-Key", key);
      keyId = Identifiers.albumIdForKey(key);
    }
    if (t.chance(0.05)) {
      r.chunked();
    } else if (t.chance(0.03)) {
      r.header("Expect", "100-continue");
    }
    return Case.of("album-valid", r, Expect.is(200), Write.album(keyId, size));
  }

  /** An upload that must be refused, with the status the contract gives it. */
  Case invalid() {
    byte[] image = t.bytes(t.between(1, 3000));
    String json = Multipart.jsonProfile("a", "t", "1977");
    Write w = Write.album(null, image.length);
    int kind = t.between(0, 27);
    return switch (kind) {
      case 0 ->
          Case.of(
              "album-no-content-type", post(Multipart.album(image, json), null), Expect.is(415), w);
      case 1 ->
          Case.of(
              "album-wrong-content-type",
              post(
                  Multipart.album(image, json),
                  t.pick(
                      List.of(
                          "text/plain",
                          "application/json",
                          "application/x-www-form-urlencoded",
                          "image/png",
                          "multipart/mixed; boundary=" + Multipart.BOUNDARY))),
              Expect.is(415),
              w);
      case 2 ->
          Case.of(
              "album-no-boundary",
              post(Multipart.album(image, json), "multipart/form-data"),
              Expect.is(400),
              w);
      case 3 ->
          Case.of(
              "album-other-boundary",
              post(Multipart.album(image, json), "multipart/form-data; boundary=not-the-one"),
              Expect.is(400),
              w);
      case 4 ->
          Case.of(
              "album-no-image",
              post(new Multipart().field("profile", json).build(), Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      case 5 ->
          Case.of(
              "album-empty-image",
              post(
                  new Multipart()
                      .file("image", "a.png", "image/png", new byte[0])
                      .field("profile", json)
                      .build(),
                  Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      case 6 ->
          Case.of(
              "album-no-profile",
              post(
                  new Multipart().file("image", "a.png", "image/png", image).build(),
                  Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      case 7 ->
          Case.of(
              "album-image-too-large",
              post(
                  Multipart.album(t.bytes(maxImage + t.between(1, 3 * maxImage)), json),
                  Multipart.CONTENT_TYPE),
              Expect.is(413),
              w);
      case 8 ->
          profile(
              image,
              t.pick(
                  List.of(
                      "{",
                      "{\"artist\":\"a\"",
                      "[]",
                      "\"a\"",
                      "42",
                      "{\"artist\":true,\"title\":\"t\",\"year\":\"1\"}",
                      "{\"artist\":\"a\",\"title\":\"t\",\"year\":\"1\"} trailing",
                      "{\"artist\":{},\"title\":\"t\",\"year\":\"1\"}")));
      case 9 -> profile(image, Multipart.jsonProfile(t.pick(List.of("", " ", "\t")), "t", "1977"));
      case 10 -> profile(image, Multipart.jsonProfile("a", "x".repeat(256), "1977"));
      case 11 -> profile(image, Multipart.jsonProfile("a\u0000b", "t", "1977"));
      case 12 ->
          profile(
              image,
              Multipart.jsonProfile(
                  "a", "t", t.pick(List.of("19777", "abc", "-1", "", "1e3", "１９７７", "0x7B"))));
      case 13 ->
          profile(
              image,
              t.pick(
                  List.of(
                      "class AlbumsProfile {\n artist: a\n title: t\n year: 1977\n",
                      "class AlbumsProfile {\n artist: a\n artist: b\n title: t\n year: 1\n}",
                      "class AlbumsProfile {\n artist a\n}",
                      "class AlbumsProfile {\n artist: null\n title: t\n year: 1\n}",
                      "artist: a\ntitle: t\nyear: 1")));
      case 14 -> profile(image, "x".repeat(16 * 1024 + 1));
      case 15 ->
          Case.of(
              "album-profile-bad-utf8",
              post(
                  new Multipart()
                      .file("image", "a.png", "image/png", image)
                      .field(
                          "profile",
                          new byte[] {'{', '"', 'a', (byte) 0xc3, 0x28, '"', '}'},
                          "text/plain; charset=UTF-8")
                      .build(),
                  Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      case 16 ->
          Case.of(
              "album-profile-bad-charset",
              post(
                  new Multipart()
                      .file("image", "a.png", "image/png", image)
                      .field(
                          "profile",
                          json.getBytes(StandardCharsets.UTF_8),
                          "text/plain; charset=x-no-such-charset")
                      .build(),
                  Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      case 17 ->
          Case.of(
              "album-unterminated",
              post(
                  new Multipart()
                      .file("image", "a.png", "image/png", image)
                      .field("profile", json)
                      .unterminated(),
                  Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      case 18 ->
          Case.of(
              "album-garbage-body",
              post(t.bytes(t.between(1, 4000)), Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      case 19 ->
          Case.of("album-empty-body", post(new byte[0], Multipart.CONTENT_TYPE), Expect.is(400), w);
      case 20 -> {
        Multipart m =
            new Multipart().file("image", "a.png", "image/png", image).field("profile", json);
        for (int i = 0; i < t.between(20, 60); i++) {
          m.field("extra" + i, "v");
        }
        yield Case.of(
            "album-many-parts", post(m.build(), Multipart.CONTENT_TYPE), Expect.any4xxOr200(), w);
      }
      case 21 ->
          Case.of(
              "album-bad-key",
              post(Multipart.album(image, json), Multipart.CONTENT_TYPE)
                  .header(
                      "Idempotency-Key",
                      t.pick(List.of("", "a b", "x".repeat(65), "ключ", "a/b", "a.b", "%41"))),
              Expect.is(400),
              w);
      case 22 ->
          Case.of(
              "album-two-keys",
              post(Multipart.album(image, json), Multipart.CONTENT_TYPE)
                  .header("Idempotency-Key", "k1")
                  .header("Idempotency-Key", "k2"),
              Expect.is(400),
              w);
      case 23 ->
          Case.of(
              "album-gzip-encoded",
              post(Multipart.album(image, json), Multipart.CONTENT_TYPE)
                  .header("Content-Encoding", "gzip"),
              Expect.any4xxOr200(),
              w);
      case 24 ->
          Case.of(
              "album-part-without-disposition",
              post(
                  new Multipart()
                      .raw(
                          ("--" + Multipart.BOUNDARY + "\r\nContent-Type: image/png\r\n\r\n")
                              .getBytes(StandardCharsets.ISO_8859_1))
                      .raw(image)
                      .raw("\r\n".getBytes(StandardCharsets.ISO_8859_1))
                      .field("profile", json)
                      .build(),
                  Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      case 25 ->
          Case.of(
              "album-huge-part-header",
              post(
                  new Multipart()
                      .file("image", "n".repeat(t.between(600, 9000)), "image/png", image)
                      .field("profile", json)
                      .build(),
                  Multipart.CONTENT_TYPE),
              Expect.any4xxOr200(),
              w);
      case 26 ->
          Case.of(
              "album-case-variant-names",
              post(
                  new Multipart()
                      .file("IMAGE", "a.png", "image/png", image)
                      .field("Profile", json)
                      .build(),
                  Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
      default ->
          Case.of(
              "album-profile-as-file-only",
              post(
                  new Multipart()
                      .file("image", "a.png", "image/png", image)
                      .file("profile", "p.json", "application/json", t.bytes(40))
                      .build(),
                  Multipart.CONTENT_TYPE),
              Expect.is(400),
              w);
    };
  }

  private Case profile(byte[] image, String profile) {
    return Case.of(
        "album-bad-profile",
        post(Multipart.album(image, profile), Multipart.CONTENT_TYPE),
        Expect.is(400),
        Write.album(null, image.length));
  }
}
