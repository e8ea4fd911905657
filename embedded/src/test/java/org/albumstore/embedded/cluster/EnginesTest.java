package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnginesTest {
  @Test
  void nothingChosenIsTheInstalledReleases() {
    Engines e = Engines.of(Map.of("HOME", "/home/u"));
    assertThat(e.rabbitmq()).isEqualTo(Engines.INSTALLED);
    assertThat(e.postgresql()).isEqualTo(Engines.INSTALLED);
    assertThat(e.fromRoot()).isFalse();
  }

  @Test
  void aReleaseOfferedHereIsChosenAndAnyOtherIsRefusedNamingTheChoices() {
    Engines e = Engines.of(Map.of("HOME", "/h", "ALBUMSTORE_RABBITMQ", "4.0"));
    assertThat(e.rabbitmq()).isEqualTo("4.0");
    assertThat(e.rabbitmqFromRoot()).isTrue();
    assertThat(e.postgresqlFromRoot()).isFalse();
    assertThatThrownBy(() -> Engines.of(Map.of("HOME", "/h", "ALBUMSTORE_POSTGRESQL", "18")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ALBUMSTORE_POSTGRESQL=18")
        .hasMessageContaining("[installed, 17]");
  }

  @Test
  void oneClusterMayRunAnotherRabbitMqThanTheJvmChoosesAndOnlyAReleaseOfferedHere() {
    Engines jvm = Engines.of(Map.of("HOME", "/h", "ALBUMSTORE_POSTGRESQL", "17"));
    Engines green = jvm.withRabbitmq("4.0");
    assertThat(green.rabbitmq()).isEqualTo("4.0");
    assertThat(green.rabbitmqFromRoot()).isTrue();
    assertThat(green.postgresql()).isEqualTo("17");
    assertThat(green.dir()).isEqualTo(jvm.dir());
    assertThat(jvm.rabbitmq()).as("the JVM's choice unchanged").isEqualTo(Engines.INSTALLED);
    assertThat(green.withRabbitmq(Engines.INSTALLED).rabbitmqFromRoot()).isFalse();
    assertThatThrownBy(() -> jvm.withRabbitmq("3.13"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[installed, 4.0]");
  }

  @Test
  void theRootsWrappersAreFoundWhereTheScriptPutsThemAndAbsentUntilItHas(@TempDir Path dir)
      throws Exception {
    Map<String, String> env =
        Map.of(
            "ALBUMSTORE_ENGINES",
            dir.toString(),
            "ALBUMSTORE_RABBITMQ",
            "4.0",
            "ALBUMSTORE_POSTGRESQL",
            "17");
    assertThat(Engines.of(env).rabbitmqTools()).isEmpty();
    assertThat(Engines.of(env).postgresqlTools()).isEmpty();

    Path sbin = Files.createDirectories(dir.resolve("rabbitmq-4.0/sbin"));
    Files.writeString(sbin.resolve("rabbitmqctl"), "#!/bin/sh\n");
    sbin.resolve("rabbitmqctl").toFile().setExecutable(true);
    Path bin = Files.createDirectories(dir.resolve("postgresql-17/bin"));
    Files.writeString(bin.resolve("pg_ctl"), "#!/bin/sh\n");
    bin.resolve("pg_ctl").toFile().setExecutable(true);

    assertThat(Engines.of(env).rabbitmqTools()).contains(sbin);
    assertThat(Engines.of(env).postgresqlTools()).contains(bin);
  }

  @Test
  void theFolderIsTheScriptsDefaultUnlessNamed() {
    assertThat(Engines.of(Map.of("HOME", "/home/u")).dir())
        .isEqualTo(Path.of("/home/u/.cache/albumstore/engines"));
    assertThat(Engines.of(Map.of("HOME", "/home/u", "XDG_CACHE_HOME", "/cache")).dir())
        .isEqualTo(Path.of("/cache/albumstore/engines"));
    assertThat(Engines.of(Map.of("HOME", "/home/u", "ALBUMSTORE_ENGINES", "/e")).dir())
        .isEqualTo(Path.of("/e"));
  }
}
