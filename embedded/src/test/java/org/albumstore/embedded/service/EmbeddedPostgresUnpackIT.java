package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.albumstore.embedded.testing.TestJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A first start stopped while it unpacked the PostgreSQL binaries does not break the next one. The
 * unpack is planted as such a stop leaves it: no {@code .exists} mark, a binary cut short, and
 * (where the archive has symbolic links: Linux) a link whose target was not written yet, which
 * zonky's next unpack failed on ({@code FileAlreadyExistsException}, seen after a CI run was
 * stopped). Each start runs in a JVM of its own with its own working directory, so that neither
 * zonky's per-JVM record of unpacked binaries nor the other tests' folder is involved.
 */
class EmbeddedPostgresUnpackIT {
  private static final String STARTED = "started PostgreSQL ";
  private static final Duration CHILD_LIMIT = Duration.ofMinutes(3);

  @TempDir Path dir;

  @Test
  void aStartAfterAnUnpackCutShortUnpacksAgainAndStarts() throws Exception {
    Path workingDir = dir.resolve("embedded-pg");
    assertThat(startInChild(workingDir, "first")).contains(STARTED + "16.");
    Path unpack;
    try (Stream<Path> unpacks = Files.list(workingDir)) {
      unpack = unpacks.filter(p -> p.getFileName().toString().startsWith("PG-")).findFirst().get();
    }

    List<String> planted = cutShort(unpack);

    String second = startInChild(workingDir, "second");
    assertThat(second).as("after planting %s", planted).contains(STARTED + "16.");
    assertThat(unpack.resolve(UnpackRecovery.DONE)).exists();
  }

  /** What a stop in the middle of the unpack leaves; returns what was planted. */
  private static List<String> cutShort(Path unpack) throws Exception {
    List<String> planted = new ArrayList<>();
    Files.delete(unpack.resolve(UnpackRecovery.DONE));
    planted.add("no " + UnpackRecovery.DONE);
    try (Stream<Path> bin = Files.list(unpack.resolve("bin"))) {
      Path postgres =
          bin.filter(p -> p.getFileName().toString().matches("postgres(\\.exe)?"))
              .findFirst()
              .get();
      Files.write(postgres, new byte[0]);
      planted.add(postgres.getFileName() + " empty");
    }
    try (Stream<Path> all = Files.walk(unpack)) {
      Path link = all.filter(Files::isSymbolicLink).findFirst().orElse(null);
      if (link != null) {
        Files.delete(link.resolveSibling(Files.readSymbolicLink(link)));
        planted.add(unpack.relativize(link) + " dangling");
      }
    }
    return planted;
  }

  private String startInChild(Path workingDir, String name) throws Exception {
    TestJvm.Run child =
        TestJvm.run(
            StartOnce.class,
            dir.resolve(name + ".log"),
            CHILD_LIMIT,
            List.of("-Dot.epg.working-dir=" + workingDir));
    assertThat(child.ended()).as("the %s start ends within %s", name, CHILD_LIMIT).isTrue();
    return child.output();
  }

  /** The child JVM: one embedded PostgreSQL started and stopped. */
  public static final class StartOnce {
    public static void main(String[] args) throws Exception {
      try (EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
        System.out.println(STARTED + postgres.version());
      }
    }
  }
}
