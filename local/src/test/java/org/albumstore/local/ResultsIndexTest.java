package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * results/README.md is the index of what stands: one table row per folder under results/ (with
 * results/archive/ as one row of its own), each folder with a README of its own, and the headline
 * rows marked {@value #HEADLINE}: those of the top-level README's Performance table, and the
 * nemesis. results/archive/README.md indexes the archived folders the same way, each once. Every
 * relative link of the two index pages leads to a file that exists. A folder added without its row,
 * a row left for a folder moved away, or a Performance figure whose folder is not marked, fails
 * here.
 */
class ResultsIndexTest {
  private static final Path ROOT = Path.of("..");
  private static final Path RESULTS = ROOT.resolve("results");

  /** The client's own run folders (git-ignored), not an experiment. */
  private static final String CLIENT_RUNS = "runs";

  private static final String ARCHIVE = "archive";
  static final String HEADLINE = "★";

  /** A headline that is no row of the Performance table: the faults' own measurement. */
  private static final String NEMESIS = "nemesis";

  /** A row: its mark cell, then the folder's link as its second cell. */
  private static final Pattern ROW =
      Pattern.compile("^\\|([^|]*)\\|\\s*\\[[^\\]]*\\]\\(([^)#\\s]+)/README\\.md\\)\\s*\\|");

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)[^)]*\\)");
  private static final Pattern RESULTS_LINK = Pattern.compile("\\]\\(results/([^/)#]+)/");

  @Test
  void everyFolderUnderResultsHasOneRowAndItsReadme() throws IOException {
    List<Row> rows = rows(read(RESULTS.resolve("README.md")));
    List<String> folders = new ArrayList<>(folders(RESULTS));
    folders.add(ARCHIVE);
    for (String folder : folders) {
      assertThat(rows.stream().filter(r -> r.folder().equals(folder)))
          .as("rows of results/README.md for results/%s/", folder)
          .hasSize(1);
      assertThat(RESULTS.resolve(folder).resolve("README.md")).isRegularFile();
    }
    assertThat(rows).as("rows of results/README.md").hasSameSizeAs(folders);
  }

  @Test
  void everyArchivedFolderIsIndexedOnceByTheArchive() throws IOException {
    String index = read(RESULTS.resolve(ARCHIVE).resolve("README.md"));
    for (String folder : folders(RESULTS.resolve(ARCHIVE))) {
      assertThat(occurrences(index, "](" + folder + "/README.md)"))
          .as("results/archive/README.md links %s/README.md once", folder)
          .isEqualTo(1);
      assertThat(RESULTS.resolve(ARCHIVE).resolve(folder).resolve("README.md")).isRegularFile();
    }
  }

  @Test
  void theHeadlineRowsAreThePerformanceTablesAndTheNemesis() throws IOException {
    Set<String> expected = performanceFolders(read(ROOT.resolve("README.md")));
    assertThat(expected).as("folders of README.md's Performance table").hasSizeGreaterThan(3);
    expected.add(NEMESIS);
    assertThat(headlines(rows(read(RESULTS.resolve("README.md"))))).isEqualTo(expected);
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
  void theChecksSeeAMissingRowADoubleRowAnUnmarkedHeadlineAndABrokenLink() {
    // The checks above on a page that lacks a row, repeats one, leaves a headline unmarked and
    // carries a dead link: proof they can fail.
    String page =
        String.join(
            "\n",
            "| | folder | figure |",
            "|---|---|---|",
            "| ★ | [a/](a/README.md) | 1 |",
            "| | [b/](b/README.md) | 2 |",
            "| | [b/](b/README.md) | 2 again |",
            "| | [archive/](archive/README.md) | past |",
            "[gone](c/README.md)");
    List<Row> rows = rows(page);
    assertThat(rows)
        .extracting(Row::folder)
        .containsExactly("a", "b", "b", ARCHIVE)
        .doesNotContain("d");
    assertThat(headlines(rows)).containsExactly("a");
    String top =
        "## Performance\n| x | [d/](results/d/README.md), [f/](results/f/README.md) |\n"
            + "## Next\n| y | [e](results/e/README.md) |";
    assertThat(performanceFolders(top)).containsExactly("d");
    assertThat(relativeLinks(page)).contains("c/README.md");
    assertThat(occurrences(page, "](b/README.md)")).isEqualTo(2);
  }

  record Row(String mark, String folder) {}

  static List<Row> rows(String index) {
    List<Row> rows = new ArrayList<>();
    for (String line : index.lines().toList()) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        rows.add(new Row(m.group(1).strip(), m.group(2)));
      }
    }
    return rows;
  }

  static Set<String> headlines(List<Row> rows) {
    Set<String> marked = new TreeSet<>();
    rows.stream().filter(r -> r.mark().equals(HEADLINE)).forEach(r -> marked.add(r.folder()));
    return marked;
  }

  /**
   * The results folder of each row of the top-level README's Performance table: the first it links
   * (a row may name a second folder beside its own).
   */
  static Set<String> performanceFolders(String readme) {
    Set<String> folders = new TreeSet<>();
    boolean inSection = false;
    for (String line : readme.lines().toList()) {
      if (line.startsWith("## ")) {
        inSection = line.equals("## Performance");
      } else if (inSection && line.startsWith("|")) {
        Matcher m = RESULTS_LINK.matcher(line);
        if (m.find()) {
          folders.add(m.group(1));
        }
      }
    }
    return folders;
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
