package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.Test;

/**
 * The embedded server leaves no working directory behind, also when several servers start and stop
 * one after another in one JVM (Tomcat remembers the first one's directory JVM-wide and used to
 * re-create it empty when the next one started).
 */
class WorkDirectoryIT {
  private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

  @Test
  void serversStartedOneAfterAnotherLeaveNoWorkingDirectory() throws Exception {
    AmqpSettings amqp = TestServices.amqp("server.workdir");
    try {
      Map<String, String> env =
          new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
      env.put(CommonSettings.HTTP_PORT.variable(), "0");
      Set<Path> before = workDirectories();
      Set<Path> seen = new HashSet<>();
      for (int i = 0; i < 3; i++) {
        try (AlbumStoreServer server = AlbumStoreServer.start(Env.system().withOverrides(env))) {
          Set<Path> now = workDirectories();
          now.removeAll(before);
          seen.addAll(now);
          assertThat(server.port()).isPositive();
        }
      }
      Set<Path> after = workDirectories();
      after.removeAll(before);
      assertThat(seen).as("each server made a working directory").hasSizeGreaterThanOrEqualTo(3);
      assertThat(after).as("working directories left behind").isEmpty();
    } finally {
      TestServices.deleteTopology(amqp);
    }
  }

  private static Set<Path> workDirectories() throws IOException {
    Set<Path> dirs = new HashSet<>();
    try (DirectoryStream<Path> d = Files.newDirectoryStream(TMP, "albumstore-tomcat-*")) {
      d.forEach(dirs::add);
    }
    return dirs;
  }
}
