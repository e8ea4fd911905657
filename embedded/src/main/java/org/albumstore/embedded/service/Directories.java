package org.albumstore.embedded.service;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Deletes the scratch directories the embedded services leave behind. */
final class Directories {
  private Directories() {}

  /** Deletes {@code dir} and everything in it; a directory that is already gone is fine. */
  static void deleteRecursively(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.deleteIfExists(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            if (e != null) {
              throw e;
            }
            Files.deleteIfExists(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
