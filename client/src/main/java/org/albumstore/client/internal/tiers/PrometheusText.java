package org.albumstore.client.internal.tiers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A reader of the Prometheus text exposition format (version 0.0.4, which the server and the
 * consumer serve; the OpenMetrics variant reads the same for what is needed here): every sample
 * line becomes a {@link Sample}. Comments ({@code # HELP}, {@code # TYPE}, {@code # EOF}) are
 * skipped, and so are lines that do not parse: a scrape is read for a report, and one odd line must
 * not cost the whole table.
 */
final class PrometheusText {
  private PrometheusText() {}

  /** One sample: a metric name, its labels (in the order given) and its value. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  public static List<Sample> parse(String text) {
    List<Sample> out = new ArrayList<>();
    int start = 0;
    int n = text.length();
    while (start < n) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = n;
      }
      Sample s = line(text, start, end);
      if (s != null) {
        out.add(s);
      }
      start = end + 1;
    }
    return out;
  }

  /** The sample on text[from, to), or null for a comment, a blank or a malformed line. */
  static Sample line(String text, int from, int to) {
    int i = skipSpaces(text, from, to);
    if (i >= to || text.charAt(i) == '#') {
      return null;
    }
    int nameStart = i;
    while (i < to && isNameChar(text.charAt(i))) {
      i++;
    }
    if (i == nameStart) {
      return null;
    }
    String name = text.substring(nameStart, i);
    Map<String, String> labels = Map.of();
    if (i < to && text.charAt(i) == '{') {
      labels = new LinkedHashMap<>();
      i = labels(text, i + 1, to, labels);
      if (i < 0) {
        return null;
      }
    }
    i = skipSpaces(text, i, to);
    int valueStart = i;
    while (i < to && !Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    if (valueStart == i) {
      return null;
    }
    try {
      double value = number(text.substring(valueStart, i)); // a timestamp may follow; unused
      return new Sample(name, Collections.unmodifiableMap(labels), value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Reads {@code name="value",...}} from {@code i}; returns the index after '}', or -1. */
  private static int labels(String text, int i, int to, Map<String, String> into) {
    StringBuilder value = new StringBuilder();
    while (true) {
      i = skipSpaces(text, i, to);
      if (i >= to) {
        return -1;
      }
      if (text.charAt(i) == '}') {
        return i + 1;
      }
      int nameStart = i;
      while (i < to && isNameChar(text.charAt(i))) {
        i++;
      }
      String name = text.substring(nameStart, i);
      i = skipSpaces(text, i, to);
      if (name.isEmpty() || i + 1 >= to || text.charAt(i) != '=' || text.charAt(i + 1) != '"') {
        return -1;
      }
      i += 2;
      value.setLength(0);
      while (i < to && text.charAt(i) != '"') {
        char c = text.charAt(i);
        if (c == '\\' && i + 1 < to) {
          char e = text.charAt(++i);
          value.append(e == 'n' ? '\n' : e); // \\ and \" stand for themselves
        } else {
          value.append(c);
        }
        i++;
      }
      if (i >= to) {
        return -1;
      }
      into.put(name, value.toString());
      i = skipSpaces(text, i + 1, to);
      if (i < to && text.charAt(i) == ',') {
        i++;
      }
    }
  }

  /** A sample value or an {@code le} bound: Go's float syntax, with {@code +Inf} and friends. */
  public static double number(String s) {
    return switch (s) {
      case "+Inf", "Inf", "inf", "+inf" -> Double.POSITIVE_INFINITY;
      case "-Inf", "-inf" -> Double.NEGATIVE_INFINITY;
      case "NaN", "nan" -> Double.NaN;
      default -> Double.parseDouble(s);
    };
  }

  private static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == ':';
  }

  private static int skipSpaces(String text, int i, int to) {
    while (i < to && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || text.charAt(i) == '\r')) {
      i++;
    }
    return i;
  }
}
