package org.albumstore.server.internal.web;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.albumstore.common.event.AlbumProfile;

/**
 * The two parts of {@code POST /albums}, read with the container's own multipart support (the
 * servlet is registered with a {@code MultipartConfigElement} whose limits come from the settings),
 * and every way they can be wrong mapped to a status a client can act on.
 *
 * @param profile the parsed, validated profile
 * @param image the image bytes, never empty
 */
public record AlbumUpload(AlbumProfile profile, byte[] image) {

  /** The multipart limit above the image: room for the profile part and the part headers. */
  public static final int REQUEST_OVERHEAD_BYTES = 64 * 1024;

  public static AlbumUpload read(HttpServletRequest req, int maxImageBytes)
      throws HttpProblem, IOException {
    String type = req.getContentType();
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
      throw new HttpProblem(
          415, "POST /albums must be multipart/form-data with the parts 'image' and 'profile'");
    }
    final Part image;
    final Part profile;
    try {
      image = req.getPart("image");
      profile = req.getPart("profile");
    } catch (IllegalStateException e) {
      // Tomcat: a part or the whole body above the configured limits, or too many parts.
      throw new HttpProblem(
          413, "the image must be at most " + maxImageBytes + " bytes (and the request few parts)");
    } catch (ServletException | IOException e) {
      // Malformed body, missing boundary, truncated stream: the client's bytes, not our fault.
      throw HttpProblem.badRequest(
          "the multipart body cannot be parsed: send 'image' and 'profile'");
    }
    if (image == null) {
      throw HttpProblem.badRequest("the 'image' part is required");
    }
    if (image.getSize() == 0) {
      throw HttpProblem.badRequest("the 'image' part is empty");
    }
    if (image.getSize() > maxImageBytes) {
      throw new HttpProblem(413, "the image must be at most " + maxImageBytes + " bytes");
    }
    if (profile == null) {
      throw HttpProblem.badRequest("the 'profile' part is required");
    }
    AlbumProfile parsed = ProfileParser.parse(text(profile));
    byte[] bytes;
    try (InputStream in = image.getInputStream()) {
      bytes = in.readAllBytes();
    }
    return new AlbumUpload(parsed, bytes);
  }

  /** The part's text in its declared charset (UTF-8 when none); malformed bytes are a 400. */
  static String text(Part part) throws HttpProblem, IOException {
    if (part.getSize() > 4L * ProfileParser.MAX_CHARS) {
      throw HttpProblem.badRequest(
          "profile must be at most " + ProfileParser.MAX_CHARS + " characters");
    }
    byte[] bytes;
    try (InputStream in = part.getInputStream()) {
      bytes = in.readAllBytes();
    }
    Charset cs = charsetOf(part.getContentType());
    try {
      return cs.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw HttpProblem.badRequest("the 'profile' part is not valid " + cs.name());
    }
  }

  static Charset charsetOf(String contentType) throws HttpProblem {
    if (contentType != null) {
      for (String param : contentType.split(";")) {
        String p = param.strip();
        if (p.regionMatches(true, 0, "charset=", 0, 8)) {
          String name = p.substring(8).replace("\"", "").strip();
          try {
            return Charset.forName(name);
          } catch (IllegalArgumentException e) {
            throw HttpProblem.badRequest("the 'profile' part's charset is not supported");
          }
        }
      }
    }
    return StandardCharsets.UTF_8;
  }
}
