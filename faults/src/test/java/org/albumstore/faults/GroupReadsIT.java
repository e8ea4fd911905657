package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.albumstore.client.history.HistoryCheck;
import org.albumstore.faults.harness.ClientProcess;
import org.albumstore.faults.harness.ClusterStack;
import org.albumstore.faults.harness.ClusterWorld;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.Summary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Counts read through a round-robin balancer stay monotonic and bounded with the group reads, and
 * the history checker would catch it if they did not.
 *
 * <p>Two servers behind HAProxy with {@code balance roundrobin}, so that every reader's GETs
 * alternate between them, under a paced write load with its operation history on: writers that
 * read their albums' counts back after each review, and reader threads of {@code GET /review}.
 * With the defaults (group reads from the one PostgreSQL primary) the checker's monotonic-counts
 * and bounded-counts properties are clean. The same run with the counts cache turned on (each
 * server answers counts from its own memory, kept by the consumers' announcements) is the
 * violation the group reads must not have: one server answers a count the other has moved past.
 * Its announcements are the cache's only news there (a count is read again only after a minute),
 * and the announcement a server misses is what shows; the checker must report counts going back.
 */
class GroupReadsIT {
  private static final int THREADS = 16;
  private static final int RATE = 80;
  private static final Duration LENGTH = Duration.ofSeconds(40);
  private static final Pattern MONOTONIC =
      Pattern.compile("^\\s+monotonic counts\\s+(ok|(\\d+) violations)$", Pattern.MULTILINE);
  private static final Pattern BOUNDED =
      Pattern.compile("^\\s+bounded counts\\s+(ok|(\\d+) violations)$", Pattern.MULTILINE);

  private static ClusterStack cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster =
        ClusterStack.startRoundRobin(
            "the group reads' consistency across servers (3 RabbitMQ nodes, HAProxy)");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void alternatingReadersNeverSeeACountGoBackWithTheDefaults() throws Exception {
    String verdict = run("group-reads-defaults", Map.of());

    assertThat(property(MONOTONIC, verdict)).as(verdict).isEqualTo("ok");
    assertThat(property(BOUNDED, verdict)).as(verdict).isEqualTo("ok");
    assertThat(verdict).contains("history: no violation");
  }

  @Test
  void theCheckerCatchesTheCountsCacheBehindARoundRobinBalancer() throws Exception {
    String verdict =
        run(
            "group-reads-counts-cache",
            Map.of(
                "ALBUMSTORE_READ_CACHE_COUNTS", "100000",
                "ALBUMSTORE_READ_CACHE_COUNTS_MS", "60000"));

    assertThat(property(MONOTONIC, verdict)).as(verdict).isNotEqualTo("ok");
  }

  /** A paced load with its history through the balancer; the checker's verdict. */
  private static String run(String name, Map<String, String> serverEnv) throws Exception {
    try (ClusterWorld world = cluster.world(name, serverEnv)) {
      world.start(2);
      Path out = emptyDirectory(Paths.outputDir().resolve(name));
      ClientProcess client =
          ClientProcess.runWithHistory(
              name + "-client",
              new ClientProcess.HistoryLoad(
                  world.balancerUrl(),
                  world.amqp(),
                  cluster.db(),
                  world.runId(),
                  THREADS,
                  RATE,
                  LENGTH,
                  Duration.ofSeconds(120)),
              Duration.ofMinutes(5),
              out);
      Path verdict = out.resolve(HistoryCheck.VERDICT_FILE);
      assertThat(verdict).as(client.output()).isRegularFile();
      String text = Files.readString(verdict);
      Summary.record(name + ": " + text.lines().reduce((a, b) -> b).orElse("no verdict"));
      return text;
    }
  }

  private static String property(Pattern line, String verdict) {
    Matcher m = line.matcher(verdict);
    assertThat(m.find()).as(verdict).isTrue();
    return m.group(1);
  }

  /** {@code dir}, emptied: nothing of an earlier run is read as this one's. */
  private static Path emptyDirectory(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    return Files.createDirectories(dir);
  }
}
