package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.albumstore.embedded.service.PostgresPlatform;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The packaged {@code albumstore-local.jar} on other machines than this one: it carries the
 * PostgreSQL binaries of every platform it serves, and on a platform it does not serve it says so
 * in one line and exits with 3 before starting anything. The other platform is played by a JVM of
 * its own whose {@code os.name} and {@code os.arch} are set on its command line, which the JDK
 * honours: the whole child JVM poses, and no production code reads a property of its own for it.
 */
class LocalJarPlatformsIT {
  private static final Path JAR =
      Path.of(System.getProperty("albumstore.local.jar", "target/albumstore-local.jar"));

  @TempDir Path dir;

  @Test
  void theJarCarriesThePostgresArchiveOfEveryServedPlatformAndNoOther() throws Exception {
    assertThat(JAR).as("the shaded jar (mvn package builds it)").exists();
    try (JarFile jar = new JarFile(JAR.toFile())) {
      Map<String, Long> archives =
          jar.stream()
              .filter(e -> e.getName().matches("postgres-.*\\.txz"))
              .collect(Collectors.toMap(e -> e.getName(), e -> e.getSize()));
      assertThat(archives).containsOnlyKeys(PostgresPlatform.BUNDLED);
      // Real archives, not empty placeholders: the smallest (Linux aarch64) is 13.7 MB.
      assertThat(archives.values()).allSatisfy(size -> assertThat(size).isGreaterThan(5_000_000L));
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"FreeBSD, amd64", "Windows 11, aarch64", "Linux, ppc64le"})
  void onAnUnservedPlatformItSaysWhatToDoInOneLineAndExitsWith3(String osName, String osArch)
      throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder pb =
        new ProcessBuilder(
            java.toString(),
            "-Dos.name=" + osName,
            "-Dos.arch=" + osArch,
            "-jar",
            JAR.toString(),
            "--embedded",
            "--out",
            dir.resolve("run").toString());
    // Nothing configured: the embedded database is the only way, and it is refused.
    pb.environment().keySet().removeIf(k -> k.startsWith("ALBUMSTORE_"));
    Path stdout = dir.resolve("stdout.txt");
    Path stderr = dir.resolve("stderr.txt");
    pb.redirectOutput(stdout.toFile());
    pb.redirectError(stderr.toFile());
    Process p = pb.start();
    try {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exited").isTrue();
    } finally {
      p.destroyForcibly();
    }
    List<String> errors =
        Files.readAllLines(stderr, StandardCharsets.UTF_8).stream()
            .filter(l -> !l.isBlank())
            .toList();
    String out = Files.readString(stdout, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("exit code; stderr: %s", errors).isEqualTo(3);
    assertThat(errors).as("stderr").hasSize(1);
    assertThat(errors.get(0))
        .startsWith("error: no embedded PostgreSQL for " + osName + " " + osArch + " ")
        .contains("install PostgreSQL")
        .contains("ALBUMSTORE_JDBC_URL");
    assertThat(out).as("nothing was started").doesNotContain("[1/5]", "[2/5]");
  }
}
