package org.albumstore.common.config;

import java.util.Locale;

/**
 * How the server's and the consumer's jars write their log: {@code text}, one line per event (the
 * default), or {@code json}, one JSON object per line for a log shipper (CloudWatch Logs, Loki,
 * Elasticsearch) to index without a parser.
 *
 * <p>Why only an environment variable, no flag: the logging backend (logback, configured by
 * common's {@code logback.xml}) reads it itself as the JVM starts, before a command line is parsed,
 * so that the very first line has the chosen format. Checked here as well, because the backend
 * would take an unknown value for an appender it does not have and drop every line: the start fails
 * instead, naming the variable.
 */
public enum LogFormat {
  TEXT,
  JSON;

  public static final Setting<String> SETTING =
      Setting.text("ALBUMSTORE_LOG_FORMAT", "text")
          .withHelp(
              "text: one line per event; json: one JSON object per line (@timestamp, level,"
                  + " logger_name, thread_name, message, stack_trace, queue, node). Read from the"
                  + " environment as the JVM starts, so it has no flag");

  /**
   * The format {@code env} asks for.
   *
   * @throws IllegalArgumentException for anything but {@code text} or {@code json}
   */
  public static LogFormat from(Env env) {
    String value = SETTING.read(env);
    for (LogFormat f : values()) {
      if (f.value().equals(value)) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        SETTING.variable() + " must be text or json, was '" + value + "'");
  }

  /** As the variable spells it, and as {@code logback.xml} names its appender. */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }
}
