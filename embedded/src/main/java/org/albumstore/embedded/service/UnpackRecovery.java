package org.albumstore.embedded.service;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clears what an interrupted first start left of the PostgreSQL binaries. zonky (2.2) unpacks them
 * into {@code PG-<digest>} under its working directory ({@code ot.epg.working-dir}, else {@code
 * java.io.tmpdir/embedded-pg}) while it holds a file lock on {@value #LOCK} there, and marks a
 * finished unpack with {@value #DONE}. A JVM stopped while it unpacked leaves a folder without the
 * mark; zonky's next unpack into it stops at the first file already there (it logs the {@code
 * FileAlreadyExistsException} and goes on), so every later start runs incomplete binaries and
 * fails, until someone deletes the folder. This does it for them, before zonky looks.
 */
final class UnpackRecovery {
  private static final Logger log = LoggerFactory.getLogger(UnpackRecovery.class);

  /** zonky's mark of a finished unpack. */
  static final String DONE = ".exists";

  /** The file zonky locks while it unpacks. */
  static final String LOCK = "epg-lock";

  private UnpackRecovery() {}

  /** Where zonky unpacks, by its own rule. */
  static Path workingDirectory() {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg");
    return Path.of(System.getProperty("ot.epg.working-dir", tmp.toString()));
  }

  /**
   * Empties every unpack under {@code dir} that has no {@value #DONE} mark and that nobody unpacks
   * now (its lock is free, in this JVM and in any other); keeps the lock file, so that an unpack
   * starting meanwhile waits on the same lock.
   *
   * @return the folders emptied
   */
  static List<Path> clearAbandoned(Path dir) throws IOException {
    List<Path> cleared = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return cleared;
    }
    try (DirectoryStream<Path> unpacks = Files.newDirectoryStream(dir, "PG-*")) {
      for (Path unpack : unpacks) {
        if (Files.isDirectory(unpack) && !Files.exists(unpack.resolve(DONE)) && clear(unpack)) {
          cleared.add(unpack);
        }
      }
    }
    return cleared;
  }

  private static boolean clear(Path unpack) throws IOException {
    Path lockFile = unpack.resolve(LOCK);
    try (FileChannel channel =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock()) {
      if (lock == null || Files.exists(unpack.resolve(DONE))) {
        return false; // another JVM unpacks it now, or just finished
      }
      log.warn(
          "removing an unfinished unpack of the PostgreSQL binaries ({}): a run stopped while it"
              + " unpacked them; they are unpacked again",
          unpack);
      deleteAllBut(unpack, lockFile);
      return true;
    } catch (OverlappingFileLockException e) {
      return false; // this JVM unpacks it now
    }
  }

  private static void deleteAllBut(Path unpack, Path keep) throws IOException {
    List<Path> inside;
    try (Stream<Path> walk = Files.walk(unpack)) {
      inside = walk.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path p : inside) {
      if (!p.equals(unpack) && !p.equals(keep)) {
        Files.delete(p);
      }
    }
  }
}
