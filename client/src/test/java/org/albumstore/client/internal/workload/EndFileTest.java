package org.albumstore.client.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndFileTest {
  @TempDir Path dir;

  private final AtomicLong now = new AtomicLong(5_000);

  @Test
  void endsOnceTheFileExistsAndStaysEndedWhenItGoes() throws Exception {
    Path file = dir.resolve("end");
    EndFile end = new EndFile(file, now::get);
    assertThat(end.getAsBoolean()).isFalse();
    Files.createFile(file);
    now.addAndGet(EndFile.EVERY.toNanos());
    assertThat(end.getAsBoolean()).isTrue();
    Files.delete(file);
    now.addAndGet(EndFile.EVERY.toNanos());
    assertThat(end.getAsBoolean()).isTrue();
  }

  @Test
  void looksAtTheFileAtMostOncePerPeriod() throws Exception {
    Path file = dir.resolve("end");
    EndFile end = new EndFile(file, now::get);
    assertThat(end.getAsBoolean()).isFalse();
    Files.createFile(file);
    now.addAndGet(EndFile.EVERY.toNanos() - 1);
    assertThat(end.getAsBoolean()).as("within the period of the last look").isFalse();
    now.addAndGet(1);
    assertThat(end.getAsBoolean()).isTrue();
  }
}
