package org.albumstore.server.internal.read;

import java.util.List;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;

/**
 * How the GETs' queries are grouped ({@link GroupReader}), one declaration each ({@link Setting}).
 * Part of the server's settings ({@code ServerSettings.readGroup}).
 *
 * <p>Why these defaults: one reader. A second one splits the groups in two, and PostgreSQL pays per
 * statement: measured side by side ({@code results/reads/group-reads/}), one reader answered more
 * GETs per second at c64 with half of PostgreSQL's CPU per GET and a lower p99. A second one would
 * not shield the GETs from a slow query either: reads take no row locks, so what slows one query (a
 * restart, a failover, a table lock) slows the next one the same way. 256 IDs per query keeps a
 * statement's array small and its answer well under a millisecond of PostgreSQL's time. Three lone
 * queries: a few readers that each read on their own are then answered as by a query per GET, the
 * assignment-4 shape's three included, while the gate on the last group keeps them out of a loaded
 * server's groups ({@code results/reads/lone-gate/}).
 *
 * @param readers reader threads, each with one connection of the read pool at a time
 * @param groupMax most GETs answered by one query
 * @param loneMax most queries in flight, the readers' included, under which a GET asks alone on its
 *     own thread (while nothing is queued and the last group held no more)
 */
public record ReadGroupSettings(int readers, int groupMax, int loneMax) {

  public static final Setting<Integer> READERS =
      Setting.integer("ALBUMSTORE_READ_READERS", 1, 1, 64)
          .withFlag("--read-readers", "N")
          .withHelp(
              "Reader threads; each answers the GETs waiting when it is free with one query for"
                  + " all their album IDs, on a read connection of its own");

  public static final Setting<Integer> GROUP_MAX =
      Setting.integer("ALBUMSTORE_READ_GROUP_MAX", 256, 1, 10_000)
          .withFlag("--read-group-max", "N")
          .withHelp("Most GETs one read query answers (1 = one query per GET)");

  public static final Setting<Integer> LONE_MAX =
      Setting.integer("ALBUMSTORE_READ_LONE_MAX", 3, 1, 64)
          .withFlag("--read-lone-max", "N")
          .withHelp(
              "Queries in flight (the readers' included) under which a GET asks the database alone,"
                  + " on its own thread, while none is queued and the readers' last group held no"
                  + " more than N; beyond, GETs queue for a reader's group. At most the read pool's"
                  + " connections less the readers");

  /** In the order of {@code --help}. */
  public static final List<Setting<?>> DECLARED = List.of(READERS, GROUP_MAX, LONE_MAX);

  /**
   * These settings on a read pool of {@code poolSize} connections: no more lone queries than the
   * connections the readers leave (at least one), so that a lone GET never waits for a connection
   * on its request thread.
   */
  public ReadGroupSettings onPool(int poolSize) {
    return new ReadGroupSettings(
        readers, groupMax, Math.max(1, Math.min(loneMax, poolSize - readers)));
  }

  public static ReadGroupSettings from(Env env) {
    return new ReadGroupSettings(READERS.read(env), GROUP_MAX.read(env), LONE_MAX.read(env));
  }
}
