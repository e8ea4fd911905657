package org.albumstore.embedded.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unpack of the PostgreSQL binaries that a stopped run left without zonky's mark is emptied
 * before the next start; a finished one, one being unpacked now and anything else in the folder are
 * left alone.
 */
class UnpackRecoveryTest {
  @TempDir Path dir;

  @Test
  void anUnfinishedUnpackNobodyHoldsIsEmptiedAndItsLockFileKept() throws Exception {
    Path abandoned = unpack("PG-abandoned", false);
    Files.writeString(abandoned.resolve(UnpackRecovery.LOCK), "");

    assertThat(UnpackRecovery.clearAbandoned(dir)).containsExactly(abandoned);

    try (var left = Files.list(abandoned)) {
      assertThat(left).containsExactly(abandoned.resolve(UnpackRecovery.LOCK));
    }
  }

  @Test
  void aFinishedUnpackAndOtherFoldersAreLeftAlone() throws Exception {
    Path finished = unpack("PG-finished", true);
    Path other = Files.createDirectories(dir.resolve("not-an-unpack"));
    Files.writeString(other.resolve("file"), "kept");

    assertThat(UnpackRecovery.clearAbandoned(dir)).isEmpty();

    assertThat(finished.resolve("bin/postgres")).exists();
    assertThat(finished.resolve("lib/libpq.so")).exists();
    assertThat(other.resolve("file")).exists();
  }

  @Test
  void anUnpackUnderWayIsLeftAlone() throws Exception {
    Path underWay = unpack("PG-under-way", false);
    try (FileChannel channel =
            FileChannel.open(
                underWay.resolve(UnpackRecovery.LOCK),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = channel.lock()) {
      assertThat(UnpackRecovery.clearAbandoned(dir)).isEmpty();
    }
    assertThat(underWay.resolve("bin/postgres")).exists();
  }

  @Test
  void noWorkingDirectoryYetIsNothingToClear() throws Exception {
    assertThat(UnpackRecovery.clearAbandoned(dir.resolve("absent"))).isEmpty();
  }

  /** A folder as zonky unpacks it: two files in two folders, with its mark when finished. */
  private Path unpack(String name, boolean finished) throws Exception {
    Path unpack = Files.createDirectories(dir.resolve(name));
    Files.createDirectories(unpack.resolve("bin"));
    Files.createDirectories(unpack.resolve("lib"));
    Files.writeString(unpack.resolve("bin/postgres"), "binary");
    Files.writeString(unpack.resolve("lib/libpq.so"), "library");
    if (finished) {
      Files.writeString(unpack.resolve(UnpackRecovery.DONE), "");
    }
    return unpack;
  }
}
