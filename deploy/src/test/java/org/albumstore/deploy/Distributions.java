package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/**
 * What the deployment tests install: the Tomcat tarballs the pom copies from Maven Central into
 * target/ before the ITs, and the two builds of the application in server/target/. Tomcat 9.0
 * implements the Servlet API as {@code javax.servlet} and takes albumstore-javax.war; 10.1 and 11
 * implement {@code jakarta.servlet} and take albumstore.war (deploy/README.md's table).
 */
final class Distributions {
  /** The jakarta.servlet build, for Tomcat 10.1 and 11. */
  static final Path WAR = Path.of(property("albumstore.it.war", "../server/target/albumstore.war"));

  /** The javax.servlet build of the same application, for Tomcat 9.0. */
  static final Path JAVAX_WAR =
      Path.of(property("albumstore.it.javaxWar", "../server/target/albumstore-javax.war"));

  private static final Path TARBALLS =
      Path.of(property("albumstore.it.tomcat.dir", "target/tomcat-dist"));

  private Distributions() {}

  private static String property(String name, String fallback) {
    return System.getProperty(name, fallback);
  }

  /** The Tomcat versions under test (the pom's albumstore.it.tomcat.versions). */
  static List<String> versions() {
    return Arrays.stream(property("albumstore.it.tomcat.versions", "11.0.24").split(","))
        .map(String::strip)
        .filter(v -> !v.isEmpty())
        .toList();
  }

  /** Each version with the WAR an operator installs into it, shown by the WAR's file name. */
  static Stream<Arguments> versionsWithTheirWars() {
    return versions().stream().map(v -> Arguments.of(v, named(warFor(v))));
  }

  /** The Tomcat 9.0 whose Servlet API albumstore-javax.war is checked against (the pom's). */
  static String tomcat9Version() {
    String version = System.getProperty("albumstore.it.tomcat9.version");
    assertThat(version)
        .as("albumstore.it.tomcat9.version: set by the pom; run through mvn verify")
        .isNotBlank();
    return version;
  }

  static Path warFor(String version) {
    return version.startsWith("9.") ? JAVAX_WAR : WAR;
  }

  /** The tarball of {@code version}, which the pom copied in pre-integration-test. */
  static Path tarball(String version) {
    Path tarball = TARBALLS.resolve("tomcat-" + version + ".tar.gz");
    assertThat(tarball)
        .as("copied by maven-dependency-plugin in pre-integration-test; run through mvn verify")
        .isRegularFile();
    return tarball;
  }

  /** Fails with the command that builds them if either WAR is missing. */
  static void requireTheWars() {
    for (Path war : List.of(WAR, JAVAX_WAR)) {
      if (!Files.isRegularFile(war)) {
        fail(
            "No WAR at "
                + war.toAbsolutePath().normalize()
                + ": build the server module first (from the repository root: mvn -pl server"
                + " package, or a reactor build that includes server before deploy)");
      }
    }
  }

  private static Named<Path> named(Path war) {
    return Named.of(war.getFileName().toString(), war);
  }
}
