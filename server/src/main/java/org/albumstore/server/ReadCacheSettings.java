package org.albumstore.server;

import java.util.List;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;
import org.albumstore.server.internal.read.ReadCache;

/**
 * How much the server keeps in memory to answer GETs without the database ({@link ReadCache}), one
 * declaration each ({@link Setting}). Part of the server's settings ({@code
 * ServerSettings.readCache}).
 *
 * <p>Why these defaults: an album's profile never changes once inserted, so caching it is always
 * safe; an entry is its ID and three short strings, so 50,000 of them are a small part of the heap.
 * Review counts change, and a cache of them in each server can show one client a count lower than
 * another server showed it a moment before, so it is off unless every read of an album reaches the
 * same server (one server, or a balancer that hashes the path): see server/README.md, "The read
 * caches". When on, a count is served at most 1 s after it was last read from the database or
 * announced by a consumer.
 *
 * @param albums most album profiles kept (0: none, every GET /albums asks the database)
 * @param counts most albums whose review counts are kept (0: none)
 * @param countsMaxAgeMs longest a count is served without being read or announced again
 */
public record ReadCacheSettings(int albums, int counts, int countsMaxAgeMs) {

  public static final Setting<Integer> ALBUMS =
      Setting.integer("ALBUMSTORE_READ_CACHE_ALBUMS", 50_000, 0, 10_000_000)
          .withFlag("--read-cache-albums", "N")
          .withHelp(
              "Most album profiles GET /albums/{albumID} answers from memory (filled by reads and"
                  + " by the consumers' commit announcements), 0 = none");

  public static final Setting<Integer> COUNTS =
      Setting.integer("ALBUMSTORE_READ_CACHE_COUNTS", 0, 0, 10_000_000)
          .withFlag("--read-cache-counts", "N")
          .withHelp(
              "Most albums whose review counts GET /review/{albumID} answers from memory, 0 = none;"
                  + " only where every read of an album reaches this server (server/README.md)");

  public static final Setting<Integer> COUNTS_MAX_AGE_MS =
      Setting.integer("ALBUMSTORE_READ_CACHE_COUNTS_MS", 1000, 1, 60_000)
          .withFlag("--read-cache-counts-ms", "MS")
          .withHelp(
              "Longest a cached review count is served without being read from the database or"
                  + " announced again");

  /** In the order of {@code --help}. */
  public static final List<Setting<?>> DECLARED = List.of(ALBUMS, COUNTS, COUNTS_MAX_AGE_MS);

  public static ReadCacheSettings from(Env env) {
    return new ReadCacheSettings(ALBUMS.read(env), COUNTS.read(env), COUNTS_MAX_AGE_MS.read(env));
  }
}
