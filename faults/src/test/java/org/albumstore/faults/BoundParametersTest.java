package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.albumstore.faults.harness.Paths;
import org.junit.jupiter.api.Test;

/**
 * SQL only through bound parameters, checked on the source of everything that talks to the database
 * (common, server, consumer): every statement is a {@code PreparedStatement} whose SQL is a
 * compile-time constant made of string literals only, so no value can ever become SQL text; the one
 * plain {@code Statement} runs the packaged {@code schema.sql}. {@code SecurityIT} proves the same
 * at run time with hostile values.
 */
class BoundParametersTest {
  private static final List<String> MODULES = List.of("common", "server", "consumer");
  private static final Pattern PREPARE =
      Pattern.compile("\\.(prepareStatement|prepareCall)\\(\\s*([^,)]*)");
  private static final Pattern LITERALS_ONLY =
      Pattern.compile("(\\s*(\"\"\"[\\s\\S]*?\"\"\"|\"(?:[^\"\\\\]|\\\\.)*\")\\s*\\+?)+\\s*");

  @Test
  void everyStatementIsPreparedFromAConstantMadeOfLiteralsOnly() throws IOException {
    List<String> problems = new ArrayList<>();
    int prepared = 0;
    for (Path file : sources()) {
      String src = Files.readString(file);
      String name = file.getFileName().toString();
      Matcher m = PREPARE.matcher(src);
      while (m.find()) {
        prepared++;
        String arg = m.group(2).trim();
        if (arg.matches("\"(?:[^\"\\\\]|\\\\.)*\"")) {
          continue; // a literal
        }
        if (!arg.matches("[A-Z][A-Z0-9_]*")) {
          problems.add(name + ": " + m.group(1) + "(" + arg + ") is not a constant");
          continue;
        }
        Matcher decl =
            Pattern.compile("static\\s+final\\s+String\\s+" + arg + "\\s*=([^;]*);").matcher(src);
        if (!decl.find()) {
          problems.add(name + ": " + arg + " is not a static final String of this file");
        } else if (!LITERALS_ONLY.matcher(decl.group(1)).matches()) {
          problems.add(name + ": " + arg + " is built from more than string literals");
        }
      }
      if (src.contains("createStatement(") && !name.equals("Schema.java")) {
        problems.add(name + ": uses a plain Statement");
      }
    }
    assertThat(problems).isEmpty();
    assertThat(prepared)
        .as("prepared statements found (the scan sees the code)")
        .isGreaterThanOrEqualTo(3);
  }

  private static List<Path> sources() throws IOException {
    List<Path> files = new ArrayList<>();
    for (String module : MODULES) {
      Path root = Paths.basedir().resolveSibling(module).resolve("src/main/java");
      assertThat(root).as("sources of " + module).isDirectory();
      try (Stream<Path> s = Files.walk(root)) {
        s.filter(p -> p.toString().endsWith(".java")).forEach(files::add);
      }
    }
    return files;
  }
}
