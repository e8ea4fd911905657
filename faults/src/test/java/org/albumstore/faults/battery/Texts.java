package org.albumstore.faults.battery;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/** Deterministic random text for the battery: tokens, Unicode strings, profiles, encodings. */
final class Texts {
  static final String TOKEN_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

  /** Characters that may stand in a request target unencoded but are not album-ID characters. */
  static final String NON_TOKEN_TARGET_CHARS = "!$&'()*+,=:@.~";

  /** Edge-case profile values that must be stored exactly, not interpreted. */
  static final List<String> SPECIAL_TEXTS =
      List.of(
          "Sex Pistols",
          "Björk",
          "Motörhead",
          "坂本龍一",
          "🎸🥁 Drums",
          "AC/DC",
          "Guns N' Roses",
          "\"Quoted\"",
          "back\\slash",
          "O'Brien'); DROP TABLE albums;--",
          "1 OR 1=1",
          "<script>alert(1)</script>",
          "%s%n%x",
          "${jndi:ldap://127.0.0.1/x}",
          "{{7*7}}",
          "tab\tinside",
          "a",
          "x".repeat(255),
          "é".repeat(255),
          "😀".repeat(255));

  private final Random random;

  Texts(Random random) {
    this.random = random;
  }

  int between(int min, int max) {
    return min + random.nextInt(max - min + 1);
  }

  boolean chance(double p) {
    return random.nextDouble() < p;
  }

  <T> T pick(List<T> items) {
    return items.get(random.nextInt(items.size()));
  }

  String token(int length) {
    return from(TOKEN_CHARS, length);
  }

  String from(String chars, int length) {
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      b.append(chars.charAt(random.nextInt(chars.length())));
    }
    return b.toString();
  }

  /** Printable text from several scripts (no control characters, no surrogate halves). */
  String text(int maxCodePoints) {
    if (chance(0.25)) {
      return pick(SPECIAL_TEXTS);
    }
    int n = between(1, maxCodePoints);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int kind = random.nextInt(6);
      int cp =
          switch (kind) {
            case 0, 1 -> between(0x20, 0x7e);
            case 2 -> between(0xa1, 0xff);
            case 3 -> between(0x410, 0x44f);
            case 4 -> between(0x4e00, 0x4fff);
            default -> between(0x1f600, 0x1f64f);
          };
      b.appendCodePoint(cp);
    }
    String s = b.toString().strip();
    return s.isEmpty() || s.equals("null") ? "x" + s : s;
  }

  String year() {
    return Integer.toString(between(0, 9999));
  }

  /** A valid profile in one of the two accepted forms. */
  String profile() {
    String artist = text(40);
    String title = text(40);
    String year = year();
    return chance(0.6)
        ? org.albumstore.faults.harness.Multipart.jsonProfile(artist, title, year)
        : org.albumstore.faults.harness.Multipart.classProfile(artist, title, year);
  }

  byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  /** Percent-encodes every byte of the UTF-8 form of {@code s}. */
  static String percentEncodeAll(String s) {
    StringBuilder b = new StringBuilder();
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      b.append('%').append(String.format("%02X", x & 0xff));
    }
    return b.toString();
  }

  /** UTF-8 bytes as ISO-8859-1 chars: how a raw request target carries non-ASCII bytes. */
  static String rawUtf8(String s) {
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }
}
