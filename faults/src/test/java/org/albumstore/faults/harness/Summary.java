package org.albumstore.faults.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
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
 * target/faults-summary.txt}. The suite's test JVMs share that file: its first line names the
 * build's run ({@code albumstore.faults.run}, set by the pom; else this JVM), the first scenario of
 * another run starts it afresh, and each line is written under a lock held across the JVMs, so
 * after {@code mvn verify} it holds exactly that run's lines.
 */
public final class Summary {
  private static final Logger log = LoggerFactory.getLogger(Summary.class);
  private static final String HEADER =
      "# run "
          + System.getProperty(
              "albumstore.faults.run",
              "of the JVM " + ManagementFactory.getRuntimeMXBean().getName());

  private Summary() {}

  public static Path file() {
    return Paths.basedir().resolve("target").resolve("faults-summary.txt");
  }

  public static synchronized void record(String line) {
    log.info("SUMMARY {}", line);
    Path f = file();
    try {
      Files.createDirectories(f.getParent());
      try (FileChannel channel =
              FileChannel.open(
                  f, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        if (!HEADER.equals(firstLine(channel))) {
          channel.truncate(0);
          append(channel, HEADER);
        }
        append(channel, line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + f, e);
    }
  }

  private static String firstLine(FileChannel channel) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(HEADER.getBytes(StandardCharsets.UTF_8).length + 2);
    channel.read(head, 0);
    return new String(head.array(), 0, head.position(), StandardCharsets.UTF_8)
        .lines()
        .findFirst()
        .orElse("");
  }

  private static void append(FileChannel channel, String line) throws IOException {
    ByteBuffer bytes =
        ByteBuffer.wrap((line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
    long at = channel.size();
    while (bytes.hasRemaining()) {
      at += channel.write(bytes, at);
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
