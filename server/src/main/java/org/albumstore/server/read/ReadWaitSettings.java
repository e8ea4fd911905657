package org.albumstore.server.read;

import java.util.LinkedHashMap;
import java.util.Map;
import org.albumstore.common.config.Env;

/**
 * The read-your-writes settings of {@code GET /albums/{albumID}} ({@link AlbumWaiters}), one
 * declaration each: variable, default, range. Part of the server's settings ({@code
 * ServerSettings.readWait}), flags in {@code ServerCommand}.
 *
 * <p>Why these defaults: a new album is normally applied 10 to 50 ms after its 200, so 5 s of wait
 * covers a consumer that fell behind by a few thousand messages and still answers well inside a
 * client's timeout; 60 s of recency is far longer than any client waits between its POST and its
 * GET, yet short enough that an old or forged ID is answered at once; 2 s of clock skew is generous
 * for servers synchronised by NTP; 1,000 parked reads cost about a kilobyte each, and beyond them a
 * quick 503 sheds load; a 5 ms poll adds at most 5 ms to a waiting read and runs one query per tick
 * only while reads are waiting.
 *
 * @param maxWaitMs longest a GET waits for an acknowledged album before its 404 (0: never wait)
 * @param windowMs how old (by its ID) a v7 album ID may be and still be waited for
 * @param clockSkewMs how far in the future (by this server's clock) a v7 album ID may be
 * @param maxWaiters most GETs waiting at once; beyond, 503 with Retry-After
 * @param pollIntervalMs time between two checks of the waiting IDs
 */
public record ReadWaitSettings(
    int maxWaitMs, int windowMs, int clockSkewMs, int maxWaiters, int pollIntervalMs) {

  public static final String MAX_WAIT_MS = "ALBUMSTORE_READ_WAIT_MS";
  public static final String WINDOW_MS = "ALBUMSTORE_READ_WAIT_WINDOW_MS";
  public static final String CLOCK_SKEW_MS = "ALBUMSTORE_READ_WAIT_CLOCK_SKEW_MS";
  public static final String MAX_WAITERS = "ALBUMSTORE_READ_WAITERS_MAX";
  public static final String POLL_INTERVAL_MS = "ALBUMSTORE_READ_WAIT_POLL_MS";

  public static final int DEFAULT_MAX_WAIT_MS = 5000;
  public static final int DEFAULT_WINDOW_MS = 60_000;
  public static final int DEFAULT_CLOCK_SKEW_MS = 2000;
  public static final int DEFAULT_MAX_WAITERS = 1000;
  public static final int DEFAULT_POLL_INTERVAL_MS = 5;

  public static ReadWaitSettings from(Env env) {
    return new ReadWaitSettings(
        env.getInt(MAX_WAIT_MS, DEFAULT_MAX_WAIT_MS, 0, 60_000),
        env.getInt(WINDOW_MS, DEFAULT_WINDOW_MS, 1000, 3_600_000),
        env.getInt(CLOCK_SKEW_MS, DEFAULT_CLOCK_SKEW_MS, 0, 600_000),
        env.getInt(MAX_WAITERS, DEFAULT_MAX_WAITERS, 1, 1_000_000),
        env.getInt(POLL_INTERVAL_MS, DEFAULT_POLL_INTERVAL_MS, 1, 1000));
  }

  /** These settings as {@code ALBUMSTORE_*} values. */
  public Map<String, String> asEnvMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(MAX_WAIT_MS, Integer.toString(maxWaitMs));
    m.put(WINDOW_MS, Integer.toString(windowMs));
    m.put(CLOCK_SKEW_MS, Integer.toString(clockSkewMs));
    m.put(MAX_WAITERS, Integer.toString(maxWaiters));
    m.put(POLL_INTERVAL_MS, Integer.toString(pollIntervalMs));
    return m;
  }
}
