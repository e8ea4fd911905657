package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents stay short enough to read (issue 61): a module README says how the module works and
 * why, and the figures live in results/, so each README is at most {@value #README_MAX} characters
 * and all of them together at most {@value #READMES_MAX}; the deploy runbook, a page of its own,
 * has the same limit; the top-level README is at most {@value #TOP_LEVEL_WORDS} words; and each row
 * of the results index is at most {@value #ROW_MAX} characters (the figure, the command and the
 * date; a question's history belongs in its folder). A page that grows past its limit fails here
 * with its size.
 */
class DocumentLimitsTest {
  static final int README_MAX = 12_000;
  static final int READMES_MAX = 80_000;
  static final int TOP_LEVEL_WORDS = 1_800;
  static final int ROW_MAX = 300;

  private static final Path ROOT = Path.of("..");

  @Test
  void eachModuleReadmeAndTheRunbookFitTheirLimit() throws IOException {
    Map<Path, Integer> sizes = readmeSizes(ROOT);
    assertThat(sizes)
        .containsKeys(ROOT.resolve("bench/README.md"), ROOT.resolve("results/README.md"));
    Path runbook = ROOT.resolve("deploy/RUNBOOK.md");
    if (Files.isRegularFile(runbook)) {
      sizes.put(runbook, characters(runbook));
    }
    assertThat(overLimit(sizes, README_MAX))
        .as("pages over %,d characters (with their size)", README_MAX)
        .isEmpty();
  }

  @Test
  void theModuleReadmesTogetherFitTheirLimit() throws IOException {
    Map<Path, Integer> sizes = readmeSizes(ROOT);
    assertThat(total(sizes))
        .as("characters of all module READMEs together: %s", sizes)
        .isLessThanOrEqualTo(READMES_MAX);
  }

  @Test
  void theTopLevelReadmeFitsItsWords() throws IOException {
    assertThat(words(read(ROOT.resolve("README.md")))).isLessThanOrEqualTo(TOP_LEVEL_WORDS);
  }

  @Test
  void eachRowOfTheResultsIndexFitsItsLimit() throws IOException {
    String index = read(ROOT.resolve("results/README.md"));
    assertThat(tableRows(index)).as("results/README.md's table").hasSizeGreaterThan(10);
    assertThat(longRows(index, ROW_MAX))
        .as("rows of results/README.md over %d characters", ROW_MAX)
        .isEmpty();
  }

  @Test
  void theChecksSeeAPageOrARowOverItsLimit() {
    // The checks above on planted pages: proof they can fail.
    Map<Path, Integer> sizes = new LinkedHashMap<>();
    sizes.put(Path.of("a/README.md"), README_MAX);
    sizes.put(Path.of("b/README.md"), README_MAX + 1);
    assertThat(overLimit(sizes, README_MAX)).containsExactly("b/README.md: 12,001");
    assertThat(total(sizes)).isEqualTo(2 * README_MAX + 1);
    String row = "| | [a/](a/README.md) | " + "x".repeat(ROW_MAX) + " |";
    assertThat(longRows("| | [b/](b/README.md) | short |\n" + row + "\nprose\n", ROW_MAX))
        .containsExactly(row.length() + ": " + row.substring(0, 60));
    assertThat(words("one two\tthree\n four  ")).isEqualTo(4);
    assertThat(characters("µs–★")).isEqualTo(4);
  }

  /** README.md of every top-level folder with a pom.xml, and of bench/ and results/. */
  static Map<Path, Integer> readmeSizes(Path root) throws IOException {
    Map<Path, Integer> sizes = new LinkedHashMap<>();
    try (Stream<Path> folders = Files.list(root)) {
      for (Path folder : folders.filter(Files::isDirectory).sorted().toList()) {
        String name = folder.getFileName().toString();
        boolean module = Files.isRegularFile(folder.resolve("pom.xml"));
        Path readme = folder.resolve("README.md");
        if ((module || name.equals("bench") || name.equals("results"))
            && Files.isRegularFile(readme)) {
          sizes.put(readme, characters(readme));
        }
      }
    }
    return sizes;
  }

  static List<String> overLimit(Map<Path, Integer> sizes, int limit) {
    List<String> over = new ArrayList<>();
    sizes.forEach(
        (page, size) -> {
          if (size > limit) {
            over.add(String.format("%s: %,d", page.toString().replace('\\', '/'), size));
          }
        });
    return over;
  }

  static int total(Map<Path, Integer> sizes) {
    return sizes.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** The lines of a Markdown table: those that start with {@code |}. */
  static List<String> tableRows(String markdown) {
    return markdown.lines().filter(l -> l.startsWith("|")).toList();
  }

  /** Each row longer than {@code limit}, as its length and its start. */
  static List<String> longRows(String markdown, int limit) {
    return tableRows(markdown).stream()
        .filter(row -> characters(row) > limit)
        .map(row -> characters(row) + ": " + row.substring(0, Math.min(60, row.length())))
        .toList();
  }

  static int words(String text) {
    String trimmed = text.strip();
    return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
  }

  /** Characters as a reader counts them: code points, not UTF-16 units or bytes. */
  static int characters(String text) {
    return (int) text.codePoints().count();
  }

  private static int characters(Path page) throws IOException {
    return characters(read(page));
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
