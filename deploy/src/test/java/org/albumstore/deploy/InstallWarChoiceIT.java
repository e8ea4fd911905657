package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code tomcat/install.sh} installs the build of the application that fits the Tomcat, without
 * starting anything: given the directory that holds both WARs it takes albumstore-javax.war for
 * Tomcat 9.0 and albumstore.war for 10.1 and 11; given the WAR built for the other Servlet
 * namespace, it refuses before it touches the target (a Tomcat would otherwise start, deploy
 * nothing and answer 404).
 */
class InstallWarChoiceIT {
  private static final Path DEPLOY_DIR =
      Path.of(System.getProperty("albumstore.it.deployDir", "."));
  private static final Path WORK = Path.of(System.getProperty("albumstore.it.workDir", "target"));

  @BeforeAll
  static void theWarsAreBuilt() {
    Distributions.requireTheWars();
  }

  /** install.sh is a bash script that reads the tarball with tar. */
  @BeforeAll
  static void theToolsOfInstallShAreInstalled() {
    ExternalTools tools = ExternalTools.system();
    for (String tool : List.of("bash", "tar")) {
      tools.require(tool, "install.sh's choice of WAR");
    }
  }

  @ParameterizedTest(name = "Tomcat {0} gets {1}")
  @MethodSource("org.albumstore.deploy.Distributions#versionsWithTheirWars")
  void fromTheBuildDirectoryTheWarForTheTomcatsNamespaceIsInstalled(String version, Path war)
      throws Exception {
    Path target = freshTarget("from-directory-" + version);
    Path directory = war.getParent();
    assertThat(directory).isEqualTo(Distributions.WAR.getParent()); // both WARs are in it

    Scripts.Result r = install(version, directory, target);

    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("installing " + war);
    assertThat(Files.mismatch(target.resolve("webapps/albumstore.war"), war))
        .as("webapps/albumstore.war is %s", war.getFileName())
        .isEqualTo(-1L);
  }

  @ParameterizedTest(name = "Tomcat {0} needs {1}")
  @MethodSource("org.albumstore.deploy.Distributions#versionsWithTheirWars")
  void theWarForTheOtherNamespaceIsRefusedBeforeAnythingIsInstalled(String version, Path war)
      throws Exception {
    requireUnzip();
    Path other = war.equals(Distributions.JAVAX_WAR) ? Distributions.WAR : Distributions.JAVAX_WAR;
    Path target = freshTarget("refused-" + version);

    Scripts.Result r = install(version, other, target);

    assertThat(r.exitCode()).as(r.output()).isEqualTo(1);
    assertThat(r.output())
        .contains("Tomcat " + version + " needs the")
        .contains(war.getFileName().toString());
    assertThat(target).as("install.sh refused, so it must not create the target").doesNotExist();
  }

  /** install.sh without --start: lays out the distribution and the WAR, nothing runs. */
  private static Scripts.Result install(String version, Path war, Path target) throws Exception {
    List<String> command = new ArrayList<>();
    command.add("bash");
    command.add(DEPLOY_DIR.resolve("tomcat/install.sh").toString());
    command.addAll(
        List.of(
            "--tomcat",
            Distributions.tarball(version).toString(),
            "--war",
            war.toString(),
            "--target",
            target.toString()));
    return Scripts.run(
        command,
        Scripts.cleanEnvironment(),
        WORK.resolve("it-logs/war-choice-" + version + ".log"),
        TomcatInstallation.INSTALL_TIMEOUT);
  }

  /** A target directory that does not exist yet (what an earlier run left there is deleted). */
  private static Path freshTarget(String name) throws IOException {
    Path target = WORK.resolve("it-war-choice").resolve(name).toAbsolutePath();
    if (Files.exists(target)) {
      try (Stream<Path> files = Files.walk(target)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
    return target;
  }

  /**
   * install.sh reads a WAR's web.xml with unzip to tell the two builds apart, and only says so
   * where unzip is missing: skip there (one line), except in CI, which must run every check.
   */
  private static void requireUnzip() {
    ExternalTools.system()
        .require("unzip", "install.sh's refusal of a WAR built for the other Tomcat");
  }
}
