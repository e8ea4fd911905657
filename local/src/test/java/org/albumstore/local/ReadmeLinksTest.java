package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every link of the READMEs a reader follows (the top-level one, each module's, the observability
 * page and the results index) leads to a file that exists and, when it names a heading, to that
 * heading as GitHub anchors it. A file renamed, or a heading reworded, without its links fails
 * here.
 */
class ReadmeLinksTest {
  private static final Path ROOT = Path.of("..");

  @Test
  void everyLinkOfTheReadmesLeadsToAFileAndItsHeading() throws IOException {
    List<Path> pages = pages();
    assertThat(pages).contains(ROOT.resolve("README.md"), ROOT.resolve("results/README.md"));
    for (Path page : pages) {
      assertThat(MarkdownLinks.broken(page, MarkdownLinks.read(page)))
          .as("links of %s that lead nowhere", page)
          .isEmpty();
    }
  }

  @Test
  void aPlantedBrokenLinkIsReported(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("other.md"), "# Other page\n\n## Its part: `code`, too\n");
    Path page = dir.resolve("README.md");
    String markdown =
        String.join(
            "\n",
            "# Title",
            "## A section",
            "[ok](other.md) [ok](other.md#its-part-code-too) [ok](#a-section) [ok](https://x.example)",
            "[gone](missing.md) [no such part](other.md#its-part) [no such part](#title-2)",
            "`[not a link](missing-in-code.md)`",
            "```",
            "[not a link](missing-in-a-block.md)",
            "```");
    Files.writeString(page, markdown);
    assertThat(MarkdownLinks.broken(page, markdown))
        .containsExactly("missing.md", "other.md#its-part", "#title-2");
  }

  @Test
  void anchorsFollowGitHubsRule() {
    assertThat(MarkdownLinks.slug("Metrics: `GET /metrics`")).isEqualTo("metrics-get-metrics");
    assertThat(MarkdownLinks.slug("Operation history (`--history`, off by default)"))
        .isEqualTo("operation-history---history-off-by-default");
    assertThat(MarkdownLinks.slug("Where the partitions' leaders are"))
        .isEqualTo("where-the-partitions-leaders-are");
    assertThat(MarkdownLinks.anchors("# A\n## A\n## A\n")).containsExactly("a", "a-1", "a-2");
  }

  /** README.md, every top-level folder's README.md, deploy/observability/ and results/. */
  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> folders = Files.list(ROOT)) {
      folders
          .filter(Files::isDirectory)
          .map(f -> f.resolve("README.md"))
          .filter(Files::isRegularFile)
          .sorted()
          .forEach(pages::add);
    }
    pages.add(ROOT.resolve("deploy/observability/README.md"));
    return pages;
  }
}
