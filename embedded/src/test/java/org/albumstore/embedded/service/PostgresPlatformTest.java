package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The archive chosen for each {@code os.name}/{@code os.arch} a JDK reports, or the refusal. */
class PostgresPlatformTest {

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "Linux, amd64, postgres-linux-x86_64.txz",
    "Linux, x86_64, postgres-linux-x86_64.txz",
    "Linux, aarch64, postgres-linux-arm_64.txz",
    "Linux, arm64, postgres-linux-arm_64.txz",
    "Mac OS X, x86_64, postgres-darwin-x86_64.txz",
    "Mac OS X, aarch64, postgres-darwin-x86_64.txz",
    "Windows 10, amd64, postgres-windows-x86_64.txz",
    "Windows 11, amd64, postgres-windows-x86_64.txz",
    "Windows Server 2022, amd64, postgres-windows-x86_64.txz",
  })
  void aServedMachineGetsItsArchive(String osName, String osArch, String archive) {
    assertThat(PostgresPlatform.archiveFor(osName, osArch, false)).isEqualTo(archive);
  }

  @ParameterizedTest(name = "{0} {1} musl={2}")
  @CsvSource({
    "Linux, arm, false", // 32-bit ARM: zonky publishes no 16.x build
    "Linux, ppc64le, false", // zonky publishes no 16.x build
    "Linux, x86, false",
    "Linux, amd64, true", // Alpine: the glibc build cannot run there
    "Linux, aarch64, true",
    "Windows 11, aarch64, false", // no Windows on ARM build
    "FreeBSD, amd64, false",
    "SunOS, sparcv9, false",
  })
  void anUnservedMachineIsToldInOneLineWhatToDo(String osName, String osArch, boolean musl) {
    assertThatThrownBy(() -> PostgresPlatform.archiveFor(osName, osArch, musl))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("no embedded PostgreSQL for " + osName + " " + osArch)
        .hasMessageContaining("install PostgreSQL")
        .hasMessageContaining("ALBUMSTORE_JDBC_URL")
        .hasMessageNotContaining("\n")
        .hasMessageNotContaining("\r");
  }

  @ParameterizedTest(name = "musl={0}")
  @CsvSource({"true", "false"})
  void theMessageNamesMuslOnlyWhereItIsTheReason(boolean musl) {
    assertThatThrownBy(() -> PostgresPlatform.archiveFor("Linux", musl ? "amd64" : "ppc64le", musl))
        .message()
        .satisfies(
            m ->
                assertThat(m.contains("with musl libc"))
                    .as("mentions musl: %s", m)
                    .isEqualTo(musl));
  }

  /** Another machine played through the seam, as the embedded PostgreSQL's start asks. */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "Mac OS X, aarch64, postgres-darwin-x86_64.txz",
    "Windows 11, amd64, postgres-windows-x86_64.txz",
    "Linux, aarch64, postgres-linux-arm_64.txz",
  })
  void anotherServedMachineFindsItsBundledArchive(String osName, String osArch, String archive) {
    assertThat(PostgresPlatform.archiveOn(osName, osArch, false)).isEqualTo(archive);
  }

  @Test
  void anotherUnservedMachineIsRefusedBeforeTheClasspathIsAsked() {
    assertThatThrownBy(() -> PostgresPlatform.archiveOn("FreeBSD", "amd64", false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("no embedded PostgreSQL for FreeBSD amd64 ");
  }

  @Test
  void thisMachineIsTheOneTheJvmReports() {
    String osName = System.getProperty("os.name");
    String osArch = System.getProperty("os.arch");
    boolean musl = "Linux".equals(osName) && PostgresPlatform.jvmUsesMusl();
    String expected;
    try {
      expected = PostgresPlatform.archiveOn(osName, osArch, musl);
    } catch (IllegalStateException unserved) {
      assertThatThrownBy(PostgresPlatform::archiveForThisMachine).hasMessage(unserved.getMessage());
      return;
    }
    assertThat(PostgresPlatform.archiveForThisMachine()).isEqualTo(expected);
  }

  @Test
  void muslIsRecognisedByItsLoaderInTheProcessMappings() {
    String glibc =
        "7f2c1a000000-7f2c1a028000 r--p 00000000 08:01 1835 /usr/lib/x86_64-linux-gnu/libc.so.6";
    String glibcLoader =
        "7f2c1a3f0000-7f2c1a3f2000 r--p 00000000 08:01 1830"
            + " /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
    String musl = "7f5b8c000000-7f5b8c014000 r--p 00000000 00:2f 42 /lib/ld-musl-x86_64.so.1";
    assertThat(PostgresPlatform.muslLoaderMapped(Stream.of(glibc, glibcLoader))).isFalse();
    assertThat(PostgresPlatform.muslLoaderMapped(Stream.of(glibc, musl))).isTrue();
  }
}
