package org.albumstore.faults.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/** Checks on response bodies: the contract's JSON, and nothing internal in error bodies. */
public final class Bodies {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What must never appear in an error body: exception names, stack frames, SQL, the container's
   * name and version, class names of the implementation.
   */
  private static final List<String> INTERNALS =
      List.of(
          "exception",
          "\tat ",
          "at org.",
          "at java.",
          "at com.",
          "org.albumstore",
          "org.apache",
          "java.",
          "javax.",
          "jakarta.",
          "com.rabbitmq",
          "com.zaxxer",
          "hikari",
          "postgres",
          "psql",
          "sqlstate",
          "select ",
          "insert ",
          "tomcat",
          "caused by",
          "stack",
          "jdbc:",
          "amqp://",
          "amqps://",
          "<html");

  private Bodies() {}

  /** True when the body is a JSON object with a non-blank string {@code msg}. */
  public static boolean hasJsonMsg(String body) {
    JsonNode msg = field(body, "msg");
    return msg != null && msg.isTextual() && !msg.textValue().isBlank();
  }

  /** A field of a JSON object body, or null when the body is not one or lacks it. */
  public static JsonNode field(String body, String name) {
    if (body == null || body.isEmpty()) {
      return null;
    }
    try {
      JsonNode root = JSON.readTree(body);
      return root != null && root.isObject() ? root.get(name) : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** The first internal detail found in {@code body} (case-insensitive), or null. */
  public static String internalDetail(String body, String... secrets) {
    String lower = body.toLowerCase(Locale.ROOT);
    for (String s : INTERNALS) {
      if (lower.contains(s)) {
        return s;
      }
    }
    for (String s : secrets) {
      if (s != null && !s.isEmpty() && body.contains(s)) {
        return "a secret";
      }
    }
    return null;
  }
}
