package org.albumstore.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;

/** {@code summary.json}: the {@link RunSummary} as indented JSON, readable back for tooling. */
public final class JsonSummary {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private JsonSummary() {}

  public static void write(RunSummary summary, Path file) throws IOException {
    JSON.writeValue(file.toFile(), summary);
  }

  /** Any other summary (e.g. {@code merge}'s) in the same JSON style. */
  public static void writeValue(Object summary, Path file) throws IOException {
    JSON.writeValue(file.toFile(), summary);
  }

  public static <T> T read(Path file, Class<T> type) throws IOException {
    return JSON.readValue(file.toFile(), type);
  }

  public static RunSummary read(Path file) throws IOException {
    return JSON.readValue(file.toFile(), RunSummary.class);
  }

  /** The summary as the live page serves it at the end of a run: the same JSON as the file. */
  public static String toJson(RunSummary summary) throws IOException {
    return JSON.writeValueAsString(summary);
  }
}
