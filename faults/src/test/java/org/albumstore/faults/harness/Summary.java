package org.albumstore.faults.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The figures of each scenario, one line each, in the test output and in {@code
 * target/faults-summary.txt}. The first line a test JVM writes starts the file afresh only if the
 * file is older than that JVM, i.e. an earlier run's; a file written since is another test JVM's of
 * this run (failsafe with {@code forkCount} above 1), and is added to. So after {@code mvn verify}
 * it holds exactly that run's lines. A lock file orders the JVMs' writes.
 */
public final class Summary {
  private static final Logger log = LoggerFactory.getLogger(Summary.class);
  private static final long JVM_START = ManagementFactory.getRuntimeMXBean().getStartTime();
  private static boolean started;

  private Summary() {}

  public static Path file() {
    return Paths.basedir().resolve("target").resolve("faults-summary.txt");
  }

  public static synchronized void record(String line) {
    log.info("SUMMARY {}", line);
    Path f = file();
    Path lockFile = f.resolveSibling("faults-summary.lock");
    try {
      Files.createDirectories(f.getParent());
      try (FileChannel ch =
              FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock held = ch.lock()) {
        if (!started) {
          if (Files.exists(f) && Files.getLastModifiedTime(f).toMillis() < JVM_START) {
            Files.delete(f);
          }
          started = true;
        }
        Files.writeString(
            f,
            line + System.lineSeparator(),
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + f, e);
    }
  }

  /** The usual line of a load scenario. */
  public static String loadLine(
      String scenario, LoadStats s, long redeliveries, Audit.Result audit, String extra) {
    return scenario
        + ": requests "
        + s.requests()
        + ", 200s "
        + s.status(200)
        + ", 503s "
        + s.status(503)
        + ", other statuses "
        + s.otherStatuses()
        + ", I/O errors "
        + s.ioErrors()
        + ", writes acknowledged "
        + s.writesAcked()
        + ", given up "
        + s.writesGivenUp()
        + ", redeliveries "
        + redeliveries
        + (extra == null || extra.isEmpty() ? "" : ", " + extra)
        + "; audit "
        + audit.verdict();
  }
}
