package org.albumstore.faults.harness;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Builds {@code multipart/form-data} bodies byte by byte, so that the battery can also send every
 * broken variant (missing parts, odd headers, no closing boundary) that a library would refuse to.
 */
public final class Multipart {
  public static final String BOUNDARY = "faults-boundary-4c1e9a";
  public static final String CONTENT_TYPE = "multipart/form-data; boundary=" + BOUNDARY;

  /** A small, valid PNG header plus filler: the image of every album the loads create. */
  public static final byte[] IMAGE = image(1200);

  private final String boundary;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  public Multipart() {
    this(BOUNDARY);
  }

  public Multipart(String boundary) {
    this.boundary = boundary;
  }

  /** A part with a file name (how browsers and most clients send the image). */
  public Multipart file(String name, String filename, String contentType, byte[] content) {
    text("--" + boundary + "\r\n");
    text(
        "Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename + "\"\r\n");
    text("Content-Type: " + contentType + "\r\n\r\n");
    out.writeBytes(content);
    text("\r\n");
    return this;
  }

  /** A part without a file name; {@code contentType} may be null. */
  public Multipart field(String name, byte[] value, String contentType) {
    text("--" + boundary + "\r\n");
    text("Content-Disposition: form-data; name=\"" + name + "\"\r\n");
    if (contentType != null) {
      text("Content-Type: " + contentType + "\r\n");
    }
    text("\r\n");
    out.writeBytes(value);
    text("\r\n");
    return this;
  }

  public Multipart field(String name, String value) {
    return field(name, value.getBytes(StandardCharsets.UTF_8), null);
  }

  /** Raw bytes, e.g. a part with broken headers. */
  public Multipart raw(byte[] bytes) {
    out.writeBytes(bytes);
    return this;
  }

  /** The body with its closing boundary. */
  public byte[] build() {
    text("--" + boundary + "--\r\n");
    return out.toByteArray();
  }

  /** The body as it stands, without the closing boundary. */
  public byte[] unterminated() {
    return out.toByteArray();
  }

  private void text(String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }

  /** The usual album upload: the image as a file part and the profile as JSON. */
  public static byte[] album(byte[] image, String profile) {
    return new Multipart()
        .file("image", "cover.png", "image/png", image)
        .field("profile", profile)
        .build();
  }

  /** {@code {"artist":..,"title":..,"year":..}} with JSON escaping of quotes and backslashes. */
  public static String jsonProfile(String artist, String title, String year) {
    return "{\"artist\":"
        + quote(artist)
        + ",\"title\":"
        + quote(title)
        + ",\"year\":"
        + quote(year)
        + "}";
  }

  /** The profile as the {@code toString()} of OpenAPI-generated Java clients prints it. */
  public static String classProfile(String artist, String title, String year) {
    return "class AlbumsProfile {\n    artist: "
        + artist
        + "\n    title: "
        + title
        + "\n    year: "
        + year
        + "\n}";
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /** A PNG signature followed by {@code size - 8} deterministic filler bytes. */
  public static byte[] image(int size) {
    byte[] b = new byte[size];
    byte[] sig = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    System.arraycopy(sig, 0, b, 0, Math.min(sig.length, size));
    for (int i = sig.length; i < size; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }
}
