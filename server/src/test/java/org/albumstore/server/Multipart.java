package org.albumstore.server;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builds multipart/form-data bodies byte by byte, so tests can also send broken ones. */
final class Multipart {
  static final String BOUNDARY = "albumstore-test-boundary-7d3f";
  static final String CONTENT_TYPE = "multipart/form-data; boundary=" + BOUNDARY;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  Multipart file(String name, String filename, String contentType, byte[] content) {
    text("--" + BOUNDARY + "\r\n");
    text(
        "Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename + "\"\r\n");
    text("Content-Type: " + contentType + "\r\n\r\n");
    out.writeBytes(content);
    text("\r\n");
    return this;
  }

  Multipart field(String name, String value) {
    return field(name, value.getBytes(StandardCharsets.UTF_8), null);
  }

  Multipart field(String name, byte[] value, String contentType) {
    text("--" + BOUNDARY + "\r\n");
    text("Content-Disposition: form-data; name=\"" + name + "\"\r\n");
    if (contentType != null) {
      text("Content-Type: " + contentType + "\r\n");
    }
    text("\r\n");
    out.writeBytes(value);
    text("\r\n");
    return this;
  }

  /** The body with its closing boundary. */
  byte[] build() {
    text("--" + BOUNDARY + "--\r\n");
    return out.toByteArray();
  }

  /** The body as it stands, without the closing boundary: a truncated upload. */
  byte[] truncated() {
    return out.toByteArray();
  }

  private void text(String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] album(byte[] image, String profile) {
    return new Multipart()
        .file("image", "cover.png", "image/png", image)
        .field("profile", profile)
        .build();
  }

  static String jsonProfile(String artist, String title, String year) {
    return "{\"artist\":\"" + artist + "\",\"title\":\"" + title + "\",\"year\":\"" + year + "\"}";
  }
}
