package org.albumstore.faults.harness;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.Bundles;

/**
 * Bodies that can never be applied, by kind: undecodable, of an unknown version, or decodable with
 * impossible values. Each comes with the words its dead-letter reason must contain (empty when any
 * non-blank reason will do).
 */
public final class PoisonMessages {
  /** One kind of poison: its body and a fragment of the reason the consumer must give. */
  public record Poison(String kind, byte[] body, String reasonContains) {}

  private PoisonMessages() {}

  public static List<Poison> all() {
    String albumId = "poison-" + UUID.randomUUID().toString().substring(0, 8);
    String version = "\"version\":" + EventCodec.VERSION;
    String valid =
        json(Bundles.reviews(List.of(new Review(UUID.randomUUID(), albumId, Vote.LIKE))));
    String validAlbum =
        json(
            new WriteBundle(
                EventCodec.VERSION,
                1L,
                List.of(new NewAlbum(albumId, new AlbumProfile("a", "t", "1977"), new byte[] {1})),
                List.of()));
    byte[] utf8 = valid.replace("\"like\"", "\"li\u0001ke\"").getBytes(StandardCharsets.UTF_8);
    byte[] invalidUtf8 = Arrays.copyOf(utf8, utf8.length);
    for (int i = 0; i < invalidUtf8.length; i++) {
      if (invalidUtf8[i] == 0x01) {
        invalidUtf8[i] = (byte) 0xC3; // a lead byte followed by an ASCII 'k': malformed UTF-8
      }
    }
    Map<String, Poison> p = new LinkedHashMap<>();
    add(
        p,
        "garbage",
        new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, '{'},
        "undecodable body");
    add(p, "empty", new byte[0], "empty body");
    add(p, "truncated", bytes(valid.substring(0, valid.length() / 2)), "undecodable body");
    add(p, "array", bytes("[1,2,3]"), "undecodable body");
    add(p, "json-null", bytes("null"), "JSON null");
    add(p, "invalid-utf8", invalidUtf8, "undecodable body");
    add(p, "version-99", bytes(valid.replace(version, "\"version\":99")), "unknown version 99");
    add(p, "version-0", bytes(valid.replace(version, "\"version\":0")), "unknown version 0");
    add(p, "vote-meh", bytes(valid.replace("\"like\"", "\"meh\"")), "neither like nor dislike");
    add(p, "bad-album-id", bytes(valid.replace(albumId, "bad id!")), "invalid albumId");
    add(p, "long-album-id", bytes(valid.replace(albumId, "x".repeat(65))), "invalid albumId");
    add(
        p,
        "no-event-id",
        bytes(valid.replaceAll("\"eventId\":\"[^\"]*\"", "\"eventId\":null")),
        "without an eventId");
    add(
        p,
        "empty-batch",
        bytes("{\"version\":1,\"publishedAtMillis\":1,\"albums\":[],\"reviews\":[]}"),
        "no albums and no reviews");
    String votes = "\"votes\":[[\"" + albumId + "\",1,0]]";
    add(
        p,
        "votes-without-id",
        bytes("{" + version + ",\"publishedAtMillis\":1," + votes + "}"),
        "without a message id");
    add(
        p,
        "votes-of-nothing",
        bytes(
            "{"
                + version
                + ",\"id\":\""
                + UUID.randomUUID()
                + "\","
                + votes.replace(",1,0]", ",0,0]")
                + "}"),
        "at least one like or dislike");
    add(p, "album-bad-year", bytes(validAlbum.replace("\"1977\"", "\"19777\"")), "year");
    add(
        p,
        "album-no-image",
        bytes(validAlbum.replaceAll(",?\"image\":\"[^\"]*\"", "")),
        "no image");
    add(
        p,
        "album-blank-artist",
        bytes(validAlbum.replace("\"artist\":\"a\"", "\"artist\":\" \"")),
        "artist");
    return List.copyOf(p.values());
  }

  private static void add(Map<String, Poison> m, String kind, byte[] body, String reason) {
    m.put(kind, new Poison(kind, body, reason));
  }

  private static String json(WriteBundle b) {
    return new String(EventCodec.encode(b), StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
