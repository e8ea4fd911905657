package org.albumstore.server.internal.read;

import java.util.List;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;

/**
 * The read-your-writes settings of {@code GET /albums/{albumID}} ({@link AlbumWaiters}), one
 * declaration each ({@link Setting}: flag, variable, default, range, help). Part of the server's
 * settings ({@code ServerSettings.readWait}).
 *
 * <p>Why these defaults: a new album is normally applied 10 to 50 ms after its 200, so 5 s of wait
 * covers a consumer that fell behind by a few thousand messages and still answers well inside a
 * client's timeout; 60 s of recency is far longer than any client waits between its POST and its
 * GET, yet short enough that an old or forged ID is answered at once; 2 s of clock skew is generous
 * for servers synchronised by NTP; 1,000 parked reads cost about a kilobyte each, and beyond them a
 * quick 503 sheds load; a 5 ms poll adds at most 5 ms to a waiting read and runs one query per tick
 * only while reads are waiting.
 *
 * @param maxWaitMs longest a GET waits for an acknowledged album before its 503 (0: never wait, 404
 *     at once)
 * @param windowMs how old (by its ID) a v7 album ID may be and still be waited for
 * @param clockSkewMs how far in the future (by this server's clock) a v7 album ID may be
 * @param maxWaiters most GETs waiting at once; beyond, 503 with Retry-After
 * @param pollIntervalMs time between two checks of the waiting IDs
 */
public record ReadWaitSettings(
    int maxWaitMs, int windowMs, int clockSkewMs, int maxWaiters, int pollIntervalMs) {

  public static final Setting<Integer> MAX_WAIT_MS =
      Setting.integer("ALBUMSTORE_READ_WAIT_MS", 5000, 0, 60_000)
          .withFlag("--read-wait-ms", "MS")
          .withHelp(
              "Longest a GET /albums/{albumID} waits for a new album before 503 with"
                  + " Retry-After, 0 = never wait (404 at once)");

  public static final Setting<Integer> WINDOW_MS =
      Setting.integer("ALBUMSTORE_READ_WAIT_WINDOW_MS", 60_000, 1000, 3_600_000)
          .withFlag("--read-wait-window-ms", "MS")
          .withHelp(
              "How old a new album's ID may be and still be waited for; older IDs get 404 at"
                  + " once");

  public static final Setting<Integer> CLOCK_SKEW_MS =
      Setting.integer("ALBUMSTORE_READ_WAIT_CLOCK_SKEW_MS", 2000, 0, 600_000)
          .withFlag("--read-wait-clock-skew-ms", "MS")
          .withHelp(
              "How far ahead of this server's clock a new album's ID may be (another server's"
                  + " clock)");

  public static final Setting<Integer> MAX_WAITERS =
      Setting.integer("ALBUMSTORE_READ_WAITERS_MAX", 1000, 1, 1_000_000)
          .withFlag("--read-waiters-max", "N")
          .withHelp("Most GETs waiting at once; beyond, 503 with Retry-After");

  public static final Setting<Integer> POLL_INTERVAL_MS =
      Setting.integer("ALBUMSTORE_READ_WAIT_POLL_MS", 5, 1, 1000)
          .withFlag("--read-wait-poll-ms", "MS")
          .withHelp("Time between two checks (one query) for the albums waited for");

  /** In the order of {@code --help}. */
  public static final List<Setting<?>> DECLARED =
      List.of(MAX_WAIT_MS, WINDOW_MS, CLOCK_SKEW_MS, MAX_WAITERS, POLL_INTERVAL_MS);

  public static ReadWaitSettings from(Env env) {
    return new ReadWaitSettings(
        MAX_WAIT_MS.read(env),
        WINDOW_MS.read(env),
        CLOCK_SKEW_MS.read(env),
        MAX_WAITERS.read(env),
        POLL_INTERVAL_MS.read(env));
  }
}
