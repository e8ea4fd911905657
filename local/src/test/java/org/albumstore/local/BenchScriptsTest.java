package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/ holds only what a reader can find and run: every script ({@code *.sh}, {@code *.py}) is
 * named in bench/README.md, and answers {@code --help} with its usage and exit code 0 within {@link
 * #HELP_TIMEOUT}, before it creates or starts anything (lib.sh answers for the shell scripts that
 * source it). A script added without its README line, or one whose {@code --help} would start a
 * run, fails here. Runs bash and python3, through {@link ExternalTools}.
 */
class BenchScriptsTest {
  static final Duration HELP_TIMEOUT = Duration.ofSeconds(10);

  private static final Path BENCH = Path.of("..", "bench");

  @Test
  void everyScriptIsNamedInTheReadme() throws IOException {
    List<Path> scripts = scripts(BENCH);
    assertThat(scripts).hasSizeGreaterThan(10);
    assertThat(unnamed(scripts, read(BENCH.resolve("README.md"))))
        .as("scripts that bench/README.md does not name")
        .isEmpty();
  }

  @Test
  void everyScriptAnswersHelpAndStartsNothing(@TempDir Path scratch) throws Exception {
    ExternalTools tools = ExternalTools.system();
    Path bash = tools.require("bash", "runs bench/*.sh --help");
    Path python = tools.require("python3", "runs bench/*.py --help");
    assertThat(helpFailures(scripts(BENCH), bash, python, scratch, HELP_TIMEOUT))
        .as("scripts whose --help failed")
        .isEmpty();
  }

  @Test
  void theChecksSeeAnUnnamedScriptAndOneWithoutHelp(@TempDir Path dir) throws Exception {
    // A planted bench folder: one script named and answering --help, one not named, one whose
    // --help fails, one that would run on: proof the checks can fail.
    ExternalTools tools = ExternalTools.system();
    Path bash = tools.require("bash", "runs planted scripts' --help");
    Path python = tools.require("python3", "runs planted scripts' --help");
    Path bench = Files.createDirectories(dir.resolve("bench"));
    Files.writeString(
        bench.resolve("README.md"), "`good.sh` `bad.py` `slow.sh` `unnamed.sh.bak`\n");
    Files.writeString(bench.resolve("good.sh"), "# usage: good.sh\necho usage\n");
    Files.writeString(bench.resolve("unnamed.sh"), "echo usage\n");
    Files.writeString(bench.resolve("bad.py"), "import sys\nsys.exit(2)\n");
    Files.writeString(bench.resolve("slow.sh"), "sleep 60\n");
    List<Path> scripts = scripts(bench);
    assertThat(unnamed(scripts, read(bench.resolve("README.md")))).containsExactly("unnamed.sh");
    // 5 s: long enough for python3 to start on a loaded machine, short enough to keep this fast.
    assertThat(helpFailures(scripts, bash, python, dir, Duration.ofSeconds(5)))
        .containsExactly(
            "bad.py: exit 2, printed 0 characters", "slow.sh: still running after 5 s");
  }

  static List<Path> scripts(Path bench) throws IOException {
    try (Stream<Path> s = Files.list(bench)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> p.toString().endsWith(".sh") || p.toString().endsWith(".py"))
          .sorted()
          .toList();
    }
  }

  /** The scripts whose file name the README does not carry as a word of its own. */
  static List<String> unnamed(List<Path> scripts, String readme) {
    List<String> unnamed = new ArrayList<>();
    for (Path script : scripts) {
      String name = script.getFileName().toString();
      if (!Pattern.compile("(?<![\\w.-])" + Pattern.quote(name) + "(?![\\w-]|\\.\\w)")
          .matcher(readme)
          .find()) {
        unnamed.add(name);
      }
    }
    return unnamed;
  }

  /**
   * Each script run with {@code --help} in a scratch working folder, with the results and work
   * folders pointed there too: one line per script that did not exit 0 with some output in time.
   */
  static List<String> helpFailures(
      List<Path> scripts, Path bash, Path python, Path scratch, Duration timeout)
      throws IOException, InterruptedException {
    List<String> failures = new ArrayList<>();
    for (Path script : scripts) {
      String name = script.getFileName().toString();
      Path interpreter = name.endsWith(".py") ? python : bash;
      Path output = Files.createTempFile(scratch, "help", ".txt");
      ProcessBuilder pb =
          new ProcessBuilder(interpreter.toString(), script.toAbsolutePath().toString(), "--help")
              .directory(scratch.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile());
      Map<String, String> env = pb.environment();
      env.put("RESULTS", scratch.resolve("results").toString());
      env.put("BENCH_DB", "albumstore_bench_help_test");
      Process p = pb.start();
      p.getOutputStream().close(); // nothing on its standard input
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        failures.add(name + ": still running after " + timeout.toSeconds() + " s");
        continue;
      }
      String printed = read(output);
      if (p.exitValue() != 0 || printed.isBlank()) {
        failures.add(
            name
                + ": exit "
                + p.exitValue()
                + ", printed "
                + printed.strip().length()
                + " characters");
      }
    }
    return failures;
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
