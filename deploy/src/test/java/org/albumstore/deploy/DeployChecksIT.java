package org.albumstore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code check.sh}, the static checks of this folder (shellcheck on every script, the
 * CloudFormation template checker, server.xml well-formed), as part of the build. A machine without
 * shellcheck fails here rather than skipping: an unchecked script is how a broken bootstrap.sh
 * would reach an EC2 instance.
 */
class DeployChecksIT {
  private static final Path DEPLOY_DIR =
      Path.of(System.getProperty("albumstore.it.deployDir", "."));
  private static final Path LOG =
      Path.of(System.getProperty("albumstore.it.workDir", "target"), "it-logs", "check.log");

  @Test
  void checkShPasses() throws Exception {
    Map<String, String> env = Scripts.cleanEnvironment();
    if (!onPath("shellcheck", env.getOrDefault("PATH", ""))) {
      fail(
          "shellcheck is not installed, so deploy/check.sh cannot check the deployment scripts."
              + " Install it (Debian/Ubuntu: apt-get install -y shellcheck; CI installs it) and"
              + " run the build again.");
    }
    Scripts.Result r =
        Scripts.run(
            List.of("bash", DEPLOY_DIR.resolve("check.sh").toString()),
            env,
            LOG,
            Duration.ofSeconds(120));
    assertThat(r.exitCode()).as("deploy/check.sh failed:\n%s", r.output()).isZero();
    assertThat(r.output())
        .contains("shellcheck: " + ourScripts() + " scripts")
        .contains("check-template: aws/template.yaml: OK")
        .contains("server.xml: well-formed")
        .contains("deploy/check.sh: all checks passed");
  }

  /** The scripts of this folder, not those of the Tomcat distributions unpacked in target/. */
  private static long ourScripts() throws IOException {
    Path target = DEPLOY_DIR.resolve("target");
    try (Stream<Path> files = Files.walk(DEPLOY_DIR)) {
      return files
          .filter(f -> !f.startsWith(target) && f.toString().endsWith(".sh"))
          .filter(Files::isRegularFile)
          .count();
    }
  }

  private static boolean onPath(String command, String path) {
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }
}
