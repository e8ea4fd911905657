package org.albumstore.server.internal.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.albumstore.common.event.AlbumProfile;

/**
 * Reads the {@code profile} part of {@code POST /albums} in both forms clients send:
 *
 * <ol>
 *   <li>JSON: {@code {"artist":"..","title":"..","year":".."}}
 *   <li>the {@code toString()} of the model class of OpenAPI-generated Java clients:
 *       <pre>
 * class AlbumsProfile {
 *     artist: Sex Pistols
 *     title: Never Mind The Bollocks!
 *     year: 1977
 * }</pre>
 * </ol>
 *
 * <p>Values are stripped of surrounding whitespace (Unicode-aware) and otherwise kept exactly,
 * including any script or emoji. The generated {@code toString()} prints {@code null} for an unset
 * field, so in that form the value {@code null} counts as missing. The result is checked with
 * {@link AlbumProfile#problem()}, the same rule the consumer applies.
 */
final class ProfileParser {
  /** A profile is three short fields; anything far longer is not a profile. */
  public static final int MAX_CHARS = 16 * 1024;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final Pattern CLASS_HEADER = Pattern.compile("class\\s+\\w+\\s*\\{");
  private static final Pattern FIELD_LINE = Pattern.compile("\\s*(\\w+)\\s*:(.*)");
  private static final String FORMS =
      "profile must be JSON like {\"artist\":\"..\",\"title\":\"..\",\"year\":\"..\"}"
          + " or the text 'class AlbumsProfile { artist: .. title: .. year: .. }'";

  private ProfileParser() {}

  public static AlbumProfile parse(String raw) throws HttpProblem {
    if (raw == null) {
      throw HttpProblem.badRequest("the 'profile' part is required");
    }
    if (raw.length() > MAX_CHARS) {
      throw HttpProblem.badRequest("profile must be at most " + MAX_CHARS + " characters");
    }
    String text = raw.strip();
    if (!text.isEmpty() && text.charAt(0) == '\uFEFF') { // a byte order mark some editors add
      text = text.substring(1).strip();
    }
    if (text.isEmpty()) {
      throw HttpProblem.badRequest("the 'profile' part is empty; " + FORMS);
    }
    final AlbumProfile profile;
    if (text.charAt(0) == '{') {
      profile = fromJson(text);
    } else if (text.startsWith("class")) {
      profile = fromClassText(text);
    } else {
      throw HttpProblem.badRequest(FORMS);
    }
    String problem = profile.problem();
    if (problem != null) {
      throw HttpProblem.badRequest(problem);
    }
    return profile;
  }

  private static AlbumProfile fromJson(String text) throws HttpProblem {
    final JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw HttpProblem.badRequest("profile is not valid JSON; " + FORMS);
    }
    if (root == null || !root.isObject()) {
      throw HttpProblem.badRequest(FORMS);
    }
    return new AlbumProfile(
        jsonField(root, "artist"), jsonField(root, "title"), jsonField(root, "year"));
  }

  /** A string (or, leniently, a number such as {@code "year":1977}); null when absent. */
  private static String jsonField(JsonNode root, String name) throws HttpProblem {
    JsonNode v = root.get(name);
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isTextual()) {
      return v.textValue().strip();
    }
    if (v.isIntegralNumber()) {
      return v.asText();
    }
    throw HttpProblem.badRequest("profile." + name + " must be a string");
  }

  private static AlbumProfile fromClassText(String text) throws HttpProblem {
    String[] lines = text.split("\\R");
    if (lines.length < 2
        || !CLASS_HEADER.matcher(lines[0].strip()).matches()
        || !lines[lines.length - 1].strip().equals("}")) {
      throw HttpProblem.badRequest(FORMS);
    }
    Map<String, String> fields = new HashMap<>();
    for (int i = 1; i < lines.length - 1; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      Matcher m = FIELD_LINE.matcher(lines[i]);
      if (!m.matches()) {
        throw HttpProblem.badRequest("profile line " + (i + 1) + " is not 'name: value'; " + FORMS);
      }
      String value = m.group(2).strip();
      if (fields.put(m.group(1), value) != null) {
        throw HttpProblem.badRequest("profile." + m.group(1) + " is given twice");
      }
    }
    return new AlbumProfile(
        classField(fields, "artist"), classField(fields, "title"), classField(fields, "year"));
  }

  private static String classField(Map<String, String> fields, String name) {
    String v = fields.get(name);
    return v == null || v.equals("null") ? null : v;
  }
}
