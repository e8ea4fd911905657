package org.albumstore.faults.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The figures of each scenario, one line each, in the test output and in {@code
 * target/faults-summary.txt} (started afresh by the first scenario of each test JVM, so after
 * {@code mvn verify} it holds exactly that run's lines).
 */
public final class Summary {
  private static final Logger log = LoggerFactory.getLogger(Summary.class);
  private static boolean started;

  private Summary() {}

  public static Path file() {
    return Paths.basedir().resolve("target").resolve("faults-summary.txt");
  }

  public static synchronized void record(String line) {
    log.info("SUMMARY {}", line);
    try {
      Path f = file();
      Files.createDirectories(f.getParent());
      if (!started) {
        Files.deleteIfExists(f);
        started = true;
      }
      Files.writeString(
          f,
          line + System.lineSeparator(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file(), e);
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
