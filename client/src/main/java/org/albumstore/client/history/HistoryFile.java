package org.albumstore.client.history;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.albumstore.client.RequestType;

/**
 * The format of {@value #NAME}, in one place: gzip-compressed JSON lines.
 *
 * <pre>
 * {"history":1,"run":"20261127-0801-1a2b3c4d","origin_epoch_ms":1795766460000}
 * {"p":"t3","t":"POST_LIKE","k":"...-t3-7-l1","a":"5f0c...","s":1234,"e":5678,"o":"200"}
 * {"p":"r0","t":"GET_REVIEW","a":"5f0c...","s":2000,"e":2300,"o":"200","l":2,"d":1}
 * {"end":true,"ops":2,"lost":0}
 * </pre>
 *
 * {@code p} process, {@code t} request type, {@code k} idempotency key (writes), {@code a} album,
 * {@code s} sent and {@code e} answered in µs since the origin, {@code o} status or exception name,
 * {@code l} / {@code d} the counts a {@code GET /review} read, {@code bad} an unusable 200 body.
 */
public final class HistoryFile {
  public static final String NAME = "history.jsonl.gz";
  static final int VERSION = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  private HistoryFile() {}

  static void writeHeader(JsonGenerator g, String runId, long originEpochMillis)
      throws IOException {
    g.writeStartObject();
    g.writeNumberField("history", VERSION);
    g.writeStringField("run", runId);
    g.writeNumberField("origin_epoch_ms", originEpochMillis);
    g.writeEndObject();
    g.writeRaw('\n');
  }

  static void writeOperation(JsonGenerator g, Operation op) throws IOException {
    g.writeStartObject();
    g.writeStringField("p", op.process());
    g.writeStringField("t", op.type().name());
    if (op.key() != null) {
      g.writeStringField("k", op.key());
    }
    if (op.albumId() != null) {
      g.writeStringField("a", op.albumId());
    }
    g.writeNumberField("s", op.sentMicros());
    g.writeNumberField("e", op.endMicros());
    g.writeStringField("o", op.outcome());
    if (op.likes() >= 0) {
      g.writeNumberField("l", op.likes());
      g.writeNumberField("d", op.dislikes());
    }
    if (op.badBody()) {
      g.writeBooleanField("bad", true);
    }
    g.writeEndObject();
    g.writeRaw('\n');
  }

  static void writeTrailer(JsonGenerator g, long operations, long lost) throws IOException {
    g.writeStartObject();
    g.writeBooleanField("end", true);
    g.writeNumberField("ops", operations);
    g.writeNumberField("lost", lost);
    g.writeEndObject();
    g.writeRaw('\n');
  }

  /**
   * Reads a history. A file cut short (the client was killed) reads as incomplete, not as an error:
   * the checker then says why it does not judge it.
   *
   * @throws HistoryFormatException naming the line when a line is not an operation of this format
   */
  public static History read(Path file) throws IOException {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file), 65_536), StandardCharsets.UTF_8))) {
      String first = in.readLine();
      JsonNode header = first == null ? null : parse(file, 1, first);
      if (header == null || header.path("history").asInt() != VERSION) {
        throw new HistoryFormatException(
            file + ": not a history of version " + VERSION + " (first line: " + first + ")");
      }
      Map<String, String> names = new HashMap<>(); // one String per album and process
      List<Operation> ops = new ArrayList<>();
      boolean complete = false;
      long lost = 0;
      String line;
      long n = 1;
      try {
        while ((line = in.readLine()) != null) {
          n++;
          JsonNode j = parse(file, n, line);
          if (j.path("end").asBoolean()) {
            complete = j.path("ops").asLong() == ops.size();
            lost = j.path("lost").asLong();
            break;
          }
          ops.add(operation(file, n, j, names));
        }
      } catch (java.io.EOFException cutShort) {
        complete = false; // the gzip stream ends mid-way: the client did not close it
      }
      return new History(
          header.path("run").asText(),
          header.path("origin_epoch_ms").asLong(),
          ops,
          complete,
          lost);
    }
  }

  private static JsonNode parse(Path file, long line, String text) throws HistoryFormatException {
    try {
      JsonNode j = JSON.readTree(text);
      if (j == null || !j.isObject()) {
        throw new HistoryFormatException(file + " line " + line + ": not a JSON object");
      }
      return j;
    } catch (IOException e) {
      throw new HistoryFormatException(file + " line " + line + ": not JSON: " + e.getMessage());
    }
  }

  private static Operation operation(Path file, long line, JsonNode j, Map<String, String> names)
      throws HistoryFormatException {
    RequestType type;
    try {
      type = RequestType.valueOf(j.path("t").asText());
    } catch (IllegalArgumentException e) {
      throw new HistoryFormatException(
          file + " line " + line + ": unknown request type '" + j.path("t").asText() + "'");
    }
    if (!j.hasNonNull("p") || !j.hasNonNull("o") || !j.hasNonNull("s") || !j.hasNonNull("e")) {
      throw new HistoryFormatException(file + " line " + line + ": p, t, s, e and o are required");
    }
    if (type.isWrite() != j.hasNonNull("k")) {
      throw new HistoryFormatException(
          file + " line " + line + ": a write needs its key (k), a read has none");
    }
    return new Operation(
        line - 1,
        names.computeIfAbsent(j.get("p").asText(), s -> s),
        type,
        j.hasNonNull("k") ? j.get("k").asText() : null,
        j.hasNonNull("a") ? names.computeIfAbsent(j.get("a").asText(), s -> s) : null,
        j.get("s").asLong(),
        j.get("e").asLong(),
        j.get("o").asText(),
        j.path("l").asLong(-1),
        j.path("d").asLong(-1),
        j.path("bad").asBoolean());
  }

  /** A history file that is not one. */
  public static final class HistoryFormatException extends IOException {
    HistoryFormatException(String message) {
      super(message);
    }
  }
}
