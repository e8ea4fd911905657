package org.albumstore.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relative links of a Markdown page and whether each leads somewhere: to a file or folder that
 * exists and, when it names an anchor ({@code page.md#a-heading}), to a heading of that page. The
 * anchors follow GitHub's rule, so that a link that works here works on GitHub: the heading's text,
 * lowercased, every character other than a letter, a digit, {@code _}, {@code -} or a space
 * dropped, each space turned into {@code -}, and {@code -1}, {@code -2}, ... added to a repeat.
 * Code (fenced blocks, inline spans) is not read for links: a command's brackets are not a link.
 */
final class MarkdownLinks {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^()\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");
  private static final Pattern INLINE_CODE = Pattern.compile("`+[^`]*`+");

  private MarkdownLinks() {}

  /** The link targets of {@code markdown} that lead nowhere, each as written. */
  static List<String> broken(Path page, String markdown) {
    List<String> broken = new ArrayList<>();
    for (String target : relativeLinks(markdown)) {
      int hash = target.indexOf('#');
      String file = hash < 0 ? target : target.substring(0, hash);
      String anchor = hash < 0 ? null : target.substring(hash + 1);
      Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
      if (!Files.exists(resolved)) {
        broken.add(target);
      } else if (anchor != null
          && resolved.toString().endsWith(".md")
          && !anchors(file.isEmpty() ? markdown : read(resolved)).contains(anchor)) {
        broken.add(target);
      }
    }
    return broken;
  }

  /** Every link target that is not a URL ({@code scheme:}), outside code. */
  static List<String> relativeLinks(String markdown) {
    List<String> links = new ArrayList<>();
    for (String line : prose(markdown)) {
      Matcher m = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
      while (m.find()) {
        String target = m.group(1);
        if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
          links.add(target);
        }
      }
    }
    return links;
  }

  /** The anchors GitHub gives the headings of {@code markdown}, in order. */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : prose(markdown)) {
      Matcher m = HEADING.matcher(line);
      if (m.matches()) {
        String slug = slug(m.group(1));
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(n == 0 ? slug : slug + "-" + n);
      }
    }
    return anchors;
  }

  /** GitHub's anchor of one heading's text (Markdown links reduced to their text). */
  static String slug(String heading) {
    String text = INLINE_LINK.matcher(heading).replaceAll("$1");
    StringBuilder slug = new StringBuilder();
    text.toLowerCase(Locale.ROOT)
        .codePoints()
        .forEach(
            c -> {
              if (Character.isLetterOrDigit(c) || c == '_' || c == '-') {
                slug.appendCodePoint(c);
              } else if (c == ' ') {
                slug.append('-');
              }
            });
    return slug.toString();
  }

  /** The lines outside fenced code blocks. */
  private static List<String> prose(String markdown) {
    List<String> lines = new ArrayList<>();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.stripLeading().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        lines.add(line);
      }
    }
    return lines;
  }

  static String read(Path page) {
    try {
      return Files.readString(page, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
