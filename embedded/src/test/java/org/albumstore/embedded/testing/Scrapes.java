package org.albumstore.embedded.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Prometheus text format well enough for assertions: every sample line as name, labels
 * and value. Labels are compared as a map, so their order in the output does not matter.
 */
public final class Scrapes {
  private Scrapes() {}

  public record Sample(String name, Map<String, String> labels, double value) {}

  public static List<Sample> parse(String text) {
    List<Sample> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.lastIndexOf(' ');
      String name;
      Map<String, String> labels = new LinkedHashMap<>();
      if (brace >= 0 && brace < space) {
        name = line.substring(0, brace);
        int close = line.lastIndexOf('}');
        for (String pair : line.substring(brace + 1, close).split("\",")) {
          if (pair.isEmpty()) {
            continue;
          }
          int eq = pair.indexOf('=');
          String v = pair.substring(eq + 2);
          labels.put(pair.substring(0, eq), v.endsWith("\"") ? v.substring(0, v.length() - 1) : v);
        }
      } else {
        name = line.substring(0, space);
      }
      out.add(new Sample(name.trim(), labels, Double.parseDouble(line.substring(space + 1))));
    }
    return out;
  }

  /** Sum of the samples named {@code name} whose labels include all of {@code match}. */
  public static double sum(String text, String name, Map<String, String> match) {
    double total = 0;
    for (Sample s : parse(text)) {
      if (s.name().equals(name) && s.labels().entrySet().containsAll(match.entrySet())) {
        total += s.value();
      }
    }
    return total;
  }

  public static boolean has(String text, String name) {
    return parse(text).stream().anyMatch(s -> s.name().equals(name));
  }
}
