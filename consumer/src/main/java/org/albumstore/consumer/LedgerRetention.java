package org.albumstore.consumer;

import java.time.Duration;
import java.util.Locale;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;
import org.albumstore.consumer.internal.ledger.LedgerPruner;

/**
 * How long the exactly-once ledger ({@code applied_reviews}) remembers an applied ID: the window
 * inside which a redelivered message or a retried keyed review is still recognised and changes
 * nothing. A duplicate that arrives later than this after the first application would be applied
 * again; redeliveries and client retries arrive within minutes, so the default of 7 days leaves a
 * wide margin (and covers a consumer stopped over a long weekend with messages in its queue).
 *
 * <p>Written as a number and a unit, {@code s}, {@code m}, {@code h} or {@code d} ({@code 7d},
 * {@code 60s}), the way an operator says it.
 *
 * @param window rows older than this are deleted in the background ({@link LedgerPruner})
 */
public record LedgerRetention(Duration window) {
  public static final Setting<String> RETENTION =
      Setting.text("ALBUMSTORE_LEDGER_RETENTION", "7d")
          .withFlag("--ledger-retention", "DURATION")
          .withHelp(
              "How long the exactly-once ledger remembers an applied ID (a duplicate arriving later"
                  + " applies again); older rows are deleted in the background. A number and s,"
                  + " m, h or d");
  static final Duration MIN = Duration.ofSeconds(1);
  static final Duration MAX = Duration.ofDays(3650);

  /** After MIN and MAX: static fields initialise in order, and this one's checks read them. */
  public static final LedgerRetention DEFAULT =
      new LedgerRetention(parse(RETENTION.defaultValue()));

  public LedgerRetention {
    if (window == null || window.compareTo(MIN) < 0 || window.compareTo(MAX) > 0) {
      throw new IllegalArgumentException(
          RETENTION.variable() + " must be between 1s and 3650d, was " + window);
    }
  }

  public static LedgerRetention from(Env env) {
    return new LedgerRetention(parse(RETENTION.read(env)));
  }

  /** {@code 7d}, {@code 12h}, {@code 30m}, {@code 60s}. */
  static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.length() >= 2) {
      char unit = t.charAt(t.length() - 1);
      try {
        long n = Long.parseLong(t.substring(0, t.length() - 1));
        if (n >= 0 && n <= MAX.toSeconds()) {
          switch (unit) {
            case 's':
              return Duration.ofSeconds(n);
            case 'm':
              return Duration.ofMinutes(n);
            case 'h':
              return Duration.ofHours(n);
            case 'd':
              return Duration.ofDays(n);
            default:
              break;
          }
        }
      } catch (NumberFormatException e) {
        // falls through to the error naming the setting
      }
    }
    throw new IllegalArgumentException(
        RETENTION.variable()
            + " must be a number and a unit s, m, h or d (e.g. 7d, 60s), was '"
            + text
            + "'");
  }

  /**
   * How often the pruner looks for expired rows: a tenth of the window (so the ledger holds at most
   * about 1.1 windows of rows), at least every second and at most every five minutes.
   */
  public Duration period() {
    Duration tenth = window.dividedBy(10);
    if (tenth.compareTo(Duration.ofSeconds(1)) < 0) {
      return Duration.ofSeconds(1);
    }
    return tenth.compareTo(Duration.ofMinutes(5)) > 0 ? Duration.ofMinutes(5) : tenth;
  }

  @Override
  public String toString() {
    return "ledger retention " + window.toSeconds() + " s";
  }
}
