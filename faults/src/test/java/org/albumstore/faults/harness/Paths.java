package org.albumstore.faults.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Files the suite uses: the runnable jars of the sibling modules (built before this module in the
 * reactor, or by {@code mvn -pl consumer,server package}) and this module's output directory.
 *
 * <p>The jars are copied once per test JVM into a directory of that JVM's under {@code
 * target/faults/}: every process of the run then starts the same build, even if a sibling module is
 * rebuilt while the suite runs, and no test JVM replaces a jar another one's processes run.
 */
public final class Paths {
  private static Path consumerJar;
  private static Path serverJar;
  private static Path clientJar;

  private Paths() {}

  /** This module's directory ({@code faults/}). */
  public static Path basedir() {
    String dir = System.getProperty("albumstore.faults.basedir");
    return Path.of(dir != null ? dir : System.getProperty("user.dir")).toAbsolutePath();
  }

  /** {@code target/faults/}: process logs and the summary of figures. */
  public static Path outputDir() {
    Path dir = basedir().resolve("target").resolve("faults");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    return dir;
  }

  /**
   * {@code target/faults/<name>/}, emptied: nothing of an earlier run of the same name (a seed run
   * again) is read as this one's.
   */
  public static Path emptyOutputDir(String name) throws IOException {
    Path dir = outputDir().resolve(name);
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    return Files.createDirectories(dir);
  }

  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  public static synchronized Path consumerJar() {
    if (consumerJar == null) {
      consumerJar = copyOnce("consumer", "albumstore-consumer.jar");
    }
    return consumerJar;
  }

  public static synchronized Path clientJar() {
    if (clientJar == null) {
      clientJar = copyOnce("client", "client.jar");
    }
    return clientJar;
  }

  public static synchronized Path serverJar() {
    if (serverJar == null) {
      serverJar = copyOnce("server", "albumstore-server.jar");
    }
    return serverJar;
  }

  private static Path copyOnce(String module, String jar) {
    Path built = basedir().resolveSibling(module).resolve("target").resolve(jar).normalize();
    if (!Files.isRegularFile(built)) {
      throw new IllegalStateException(
          built
              + " is missing: build it first, e.g. `cd "
              + basedir().getParent()
              + " && mvn -B -pl "
              + module
              + " package -DskipTests` (a full reactor build does this before the faults module)");
    }
    Path copy = outputDir().resolve("jars-" + ProcessHandle.current().pid()).resolve(jar);
    try {
      Files.createDirectories(copy.getParent());
      Files.copy(built, copy, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + built, e);
    }
    return copy;
  }
}
