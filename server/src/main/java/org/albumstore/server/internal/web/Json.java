package org.albumstore.server.internal.web;

/**
 * Writes the API's response bodies: flat JSON objects whose values are all strings, as the API
 * declares. Hand-written because that is all it ever needs, and it runs on every response.
 */
public final class Json {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Json() {}

  /** {@code {"k1":"v1","k2":"v2"}} from alternating keys and values; null values become "". */
  public static String object(String... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must come in pairs");
    }
    StringBuilder sb = new StringBuilder(16 + 24 * keysAndValues.length);
    sb.append('{');
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (i > 0) {
        sb.append(',');
      }
      appendString(sb, keysAndValues[i]);
      sb.append(':');
      appendString(sb, keysAndValues[i + 1]);
    }
    return sb.append('}').toString();
  }

  /**
   * Appends {@code s} as a JSON string literal. Escapes what RFC 8259 requires plus U+2028/U+2029
   * (so the output is also safe inside JavaScript); everything else, including non-BMP characters
   * as surrogate pairs, passes through unchanged and is encoded as UTF-8 by the caller.
   */
  static void appendString(StringBuilder sb, String s) {
    sb.append('"');
    if (s != null) {
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"' -> sb.append("\\\"");
          case '\\' -> sb.append("\\\\");
          case '\n' -> sb.append("\\n");
          case '\r' -> sb.append("\\r");
          case '\t' -> sb.append("\\t");
          case '\b' -> sb.append("\\b");
          case '\f' -> sb.append("\\f");
          default -> {
            if (c < 0x20 || c == '\u2028' || c == '\u2029') {
              sb.append("\\u")
                  .append(HEX[(c >> 12) & 0xF])
                  .append(HEX[(c >> 8) & 0xF])
                  .append(HEX[(c >> 4) & 0xF])
                  .append(HEX[c & 0xF]);
            } else {
              sb.append(c);
            }
          }
        }
      }
    }
    sb.append('"');
  }
}
