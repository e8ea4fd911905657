package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * results/README.md is the index of every experiment: each folder under results/ (and under
 * results/archive/) is listed there exactly once and has a README of its own, and every relative
 * link of the two index pages leads to a file that exists. A folder added without an index row, or
 * moved without its links, fails here.
 */
class ResultsIndexTest {
  private static final Path RESULTS = Path.of("..", "results");

  /** The client's own run folders (git-ignored), not an experiment. */
  private static final String CLIENT_RUNS = "runs";

  private static final String ARCHIVE = "archive";
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)[^)]*\\)");

  @Test
  void everyFolderUnderResultsIsIndexedOnceAndHasItsReadme() throws IOException {
    String index = read(RESULTS.resolve("README.md"));
    for (String folder : folders(RESULTS)) {
      assertThat(occurrences(index, "](" + folder + "/README.md)"))
          .as("results/README.md links results/%s/README.md once", folder)
          .isEqualTo(1);
      assertThat(RESULTS.resolve(folder).resolve("README.md")).isRegularFile();
    }
  }

  @Test
  void everyArchivedFolderIsIndexedOnceAndHasItsReadme() throws IOException {
    String index = read(RESULTS.resolve("README.md"));
    for (String folder : folders(RESULTS.resolve(ARCHIVE))) {
      assertThat(occurrences(index, "](" + ARCHIVE + "/" + folder + "/README.md)"))
          .as("results/README.md links results/archive/%s/README.md once", folder)
          .isEqualTo(1);
      assertThat(RESULTS.resolve(ARCHIVE).resolve(folder).resolve("README.md")).isRegularFile();
    }
  }

  @Test
  void everyRelativeLinkOfTheIndexPagesLeadsToAFile() throws IOException {
    for (Path page :
        List.of(RESULTS.resolve("README.md"), RESULTS.resolve(ARCHIVE + "/README.md"))) {
      for (String target : relativeLinks(read(page))) {
        assertThat(page.getParent().resolve(target).normalize())
            .as("%s links %s", page, target)
            .exists();
      }
    }
  }

  @Test
  void theChecksSeeAMissingRowAndABrokenLink() {
    // The checks above on a page that lacks a row and carries a dead link: proof they can fail.
    String page = "| [a/](a/README.md) | ... |\n[gone](b/README.md)\n";
    assertThat(occurrences(page, "](a/README.md)")).isEqualTo(1);
    assertThat(occurrences(page, "](c/README.md)")).isZero();
    assertThat(relativeLinks(page)).containsExactly("a/README.md", "b/README.md");
  }

  private static List<String> folders(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isDirectory)
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.equals(ARCHIVE) && !n.equals(CLIENT_RUNS))
          .sorted()
          .toList();
    }
  }

  private static List<String> relativeLinks(String markdown) {
    List<String> links = new ArrayList<>();
    Matcher m = LINK.matcher(markdown);
    while (m.find()) {
      if (!m.group(1).contains("://")) {
        links.add(m.group(1));
      }
    }
    return links;
  }

  private static int occurrences(String text, String needle) {
    int count = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      count++;
    }
    return count;
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
