package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.tukaani.xz.XZInputStream;

/**
 * The bundled PostgreSQL archives, as zonky will find them on the classpath. The unpacking
 * libraries (commons-compress, xz) are zonky's own, used here to read what zonky will read.
 */
class PostgresBinariesIT {
  /** Mach-O CPU types ({@code mach/machine.h}). */
  private static final int CPU_TYPE_X86_64 = 0x01000007;

  private static final int CPU_TYPE_ARM64 = 0x0100000C;

  /** A Mach-O universal ("fat") file starts with this, big-endian, then its number of slices. */
  private static final int FAT_MAGIC = 0xCAFEBABE;

  @Test
  void everyBundledArchiveIsOnTheClasspathExactlyOnce() throws IOException {
    for (String archive : PostgresPlatform.BUNDLED) {
      // zonky refuses to start when it finds an archive twice ("Duplicate embedded postgres
      // binaries").
      List<URL> copies =
          Collections.list(PostgresBinariesIT.class.getClassLoader().getResources(archive));
      assertThat(copies).as(archive).hasSize(1);
    }
  }

  @Test
  void thisMachineGetsABundledArchive() {
    assertThat(PostgresPlatform.BUNDLED).contains(PostgresPlatform.archiveForThisMachine());
  }

  /**
   * One archive serves both kinds of Mac only because its programs are universal binaries: a zonky
   * version that ships single-architecture builds instead must fail here, not on a user's Mac.
   */
  @Test
  void theMacArchiveHoldsUniversalX86AndArmPrograms() throws IOException {
    Map<String, Set<Integer>> cpuTypes = new HashMap<>();
    try (InputStream raw =
            PostgresBinariesIT.class
                .getClassLoader()
                .getResourceAsStream(PostgresPlatform.MACOS_UNIVERSAL);
        TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(raw))) {
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        String name = entry.getName().replaceFirst("^\\./", "");
        if (List.of("bin/initdb", "bin/pg_ctl", "bin/postgres").contains(name)) {
          cpuTypes.put(name, fatCpuTypes(new DataInputStream(tar)));
        }
      }
    }
    assertThat(cpuTypes).containsOnlyKeys("bin/initdb", "bin/pg_ctl", "bin/postgres");
    cpuTypes.forEach(
        (program, types) ->
            assertThat(types).as(program).contains(CPU_TYPE_X86_64, CPU_TYPE_ARM64));
  }

  /** The CPU types of a universal binary's slices; empty if it is not one. */
  private static Set<Integer> fatCpuTypes(DataInputStream in) throws IOException {
    Set<Integer> types = new HashSet<>();
    if (in.readInt() != FAT_MAGIC) {
      return types;
    }
    int slices = in.readInt();
    for (int i = 0; i < slices; i++) {
      types.add(in.readInt()); // cputype; then cpusubtype, offset, size, align
      in.skipNBytes(16);
    }
    return types;
  }
}
