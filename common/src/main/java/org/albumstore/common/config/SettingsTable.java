package org.albumstore.common.config;

import java.util.List;

/**
 * The Markdown table of a runnable's settings, made from their declarations, for its README: the
 * READMEs hold it between {@value #BEGIN} and {@value #END}, and a test per runnable fails when the
 * two differ, printing the table to paste. So a README cannot state another default than the code.
 */
public final class SettingsTable {
  public static final String BEGIN = "<!-- settings table: generated from the declarations -->";
  public static final String END = "<!-- end of settings table -->";

  private SettingsTable() {}

  /** One row per setting: flag, variable, default, help. */
  public static String markdown(List<Setting<?>> settings) {
    StringBuilder b = new StringBuilder();
    b.append("| flag | variable | default | what |\n|---|---|---|---|\n");
    for (Setting<?> s : settings) {
      b.append("| ")
          .append(s.flag() == null ? "(none)" : "`" + s.flag() + "`")
          .append(" | `")
          .append(s.variable())
          .append("` | ")
          .append(literal(s) ? "`" + s.defaultText() + "`" : s.defaultText())
          .append(" | ")
          .append(cell(s.help()) + (s.secret() ? "; prefer the variable (flags show in ps)" : ""))
          .append(
              s.formerVariable() == null
                  ? ""
                  : "; formerly `"
                      + s.formerFlag()
                      + "`, `"
                      + s.formerVariable()
                      + "` (still read)")
          .append(" |\n");
    }
    return b.toString();
  }

  /** The table held by {@code readme}, or null when it has none. */
  public static String in(String readme) {
    int begin = readme.indexOf(BEGIN);
    int end = readme.indexOf(END);
    if (begin < 0 || end < begin) {
      return null;
    }
    return readme.substring(begin + BEGIN.length(), end).strip() + "\n";
  }

  /** A default that is a value (shown as code), not a description such as "none". */
  private static boolean literal(Setting<?> s) {
    return s.defaultValue() != null
        && !s.defaultText().isEmpty()
        && s.defaultText().equals(s.defaultValue().toString());
  }

  private static String cell(String text) {
    return text == null ? "" : text.replace("|", "\\|");
  }
}
