package org.albumstore.client.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * The image every {@code POST /albums} uploads, read once at start-up and shared by all threads
 * (the bytes are never modified).
 *
 * @param bytes the file content
 * @param contentType sent as the content type of the multipart {@code image} part
 * @param fileName sent as the part's file name
 * @param source where it came from, for the report
 */
public record AlbumImage(byte[] bytes, String contentType, String fileName, String source) {
  /** The built-in picture: a real PNG of about the size of the course's 3,475-byte test image. */
  public static final String BUILT_IN_RESOURCE = "/org/albumstore/client/album.png";

  public AlbumImage {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length == 0) {
      throw new IllegalArgumentException("the image " + source + " is empty");
    }
  }

  public static AlbumImage builtIn() {
    try (InputStream in = AlbumImage.class.getResourceAsStream(BUILT_IN_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "built-in image missing from the jar: " + BUILT_IN_RESOURCE);
      }
      return new AlbumImage(in.readAllBytes(), "image/png", "album.png", "built-in");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static AlbumImage read(Path file) throws IOException {
    String name = file.getFileName().toString();
    return new AlbumImage(Files.readAllBytes(file), contentTypeOf(name), name, file.toString());
  }

  static String contentTypeOf(String fileName) {
    String n = fileName.toLowerCase(Locale.ROOT);
    if (n.endsWith(".png")) {
      return "image/png";
    }
    if (n.endsWith(".jpg") || n.endsWith(".jpeg")) {
      return "image/jpeg";
    }
    if (n.endsWith(".gif")) {
      return "image/gif";
    }
    return "application/octet-stream";
  }
}
