package org.albumstore.client.internal.merge;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code java -jar client.jar merge DIR DIR ...}: the command line of {@link MergeRun}. */
@Command(
    name = "java -jar client.jar merge",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Combines the runs of several clients of one test (started together with the same"
          + " --run-id) into one report: request counts and rates summed, latency percentiles"
          + " from the merged .hlog histograms, and one verification of the union of their"
          + " acknowledged writes (acknowledged.csv) against the server.",
      ""
    },
    footer = {
      "",
      "Exit codes: 0 every request succeeded and every album verified; 1 failed requests or"
          + " mismatches; 2 usage error (also: runs of different run IDs); 3 a run's files"
          + " unreadable or inconsistent, or the server unreachable."
    })
final class MergeCommand {
  // Each default is declared once, as the option's defaultValue; the help prints it.

  @Parameters(
      arity = "1..*",
      paramLabel = "DIR",
      description = {"Run directories (each client's --out).", "Default: none, at least one."})
  List<Path> dirs;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = {"Base URL of the server to verify against.", "Default: the first run's URL."})
  String url;

  @Option(
      names = "--verify",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = {
        "Read every album of the union of the runs' acknowledged writes and compare its counts.",
        "Default: ${DEFAULT-VALUE}."
      })
  boolean verify;

  @Option(
      names = "--drain-timeout",
      paramLabel = "SECONDS",
      defaultValue = "120",
      description = {
        "How long disagreeing albums are re-read (the queue may still be draining).",
        "Default: ${DEFAULT-VALUE}."
      })
  double drainTimeout;

  @Option(
      names = "--verify-threads",
      paramLabel = "N",
      defaultValue = "8",
      description = {"Concurrent GETs while verifying.", "Default: ${DEFAULT-VALUE}."})
  int verifyThreads;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description = {"Connect and response timeout of one GET.", "Default: ${DEFAULT-VALUE}."})
  double timeout;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = {
        "Directory for the merged summary.json and spectrum.png.",
        "Default: none, the report goes to stdout only."
      })
  Path out;

  /**
   * @throws IllegalArgumentException naming the option when a value is impossible
   */
  void validate() {
    if (verifyThreads < 1) {
      throw new IllegalArgumentException(
          "--verify-threads must be at least 1, was " + verifyThreads);
    }
    if (!(timeout > 0) || !(drainTimeout >= 0)) {
      throw new IllegalArgumentException("--timeout must be > 0 and --drain-timeout >= 0");
    }
    if (url != null && !url.startsWith("http://") && !url.startsWith("https://")) {
      throw new IllegalArgumentException("--url must start with http:// or https://, was " + url);
    }
  }
}
