package org.albumstore.client.internal.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.albumstore.client.internal.stats.StepRow;

/** {@code steps.csv}: the writes of each {@code --rate-steps} step (or ramp row), one row each. */
public final class StepsCsv {
  public static final String NAME = "steps.csv";
  static final String HEADER = "step,from_s,to_s,target_rate,ok,failed,rate,p50_ms,p99_ms,p999_ms";

  private StepsCsv() {}

  public static void write(List<StepRow> steps, Path file) throws IOException {
    StringBuilder b = new StringBuilder(HEADER).append('\n');
    for (StepRow r : steps) {
      b.append(
          String.format(
              Locale.ROOT,
              "%d,%.3f,%.3f,%.3f,%d,%d,%.3f,%.3f,%.3f,%.3f%n",
              r.step(),
              r.fromSeconds(),
              r.toSeconds(),
              r.targetRate(),
              r.ok(),
              r.failed(),
              r.rate(),
              r.p50Ms(),
              r.p99Ms(),
              r.p999Ms()));
    }
    Files.writeString(file, b, StandardCharsets.UTF_8);
  }
}
