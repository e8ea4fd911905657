package org.albumstore.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.LogFormat;
import org.albumstore.common.config.Setting;
import org.albumstore.common.event.EventCodec;
import org.albumstore.server.internal.metrics.MetricsPort;
import org.albumstore.server.internal.read.ReadGroupSettings;
import org.albumstore.server.internal.read.ReadWaitSettings;

/**
 * The server's own settings (the broker and the database are {@code AmqpSettings} and {@code
 * DatabaseSettings} of common), read once at start-up and passed in.
 *
 * <p>Each setting is declared once, as a {@link Setting} below (flag, variable, default, range,
 * help); {@link #DECLARED} lists all the server reads, for its launcher's flags and for the
 * embedded server's context init parameters. Why these values: one bundle is in flight at a time,
 * and 4 channels let up to 4 be while full bundles wait ({@code publish/Bundler}), which with group
 * commit is plenty on 2 cores; 256 writes per message keeps a message far below the broker's frame
 * and message limits while amortising the confirm; a 20,000-write queue is a few seconds of peak
 * load, after which shedding with 503 beats queueing requests the client has already given up on.
 * Measured side by side ({@code bench/ceiling.sh 3 15 256}, results/ceiling/): group commit (about
 * 23 requests per message) served 7.0x the requests of one message per request with the same 4
 * channels, and 4.4x one message per request with 64 channels; so group commit stays the default.
 * 2, 4 and 8 channels, and 16, 32 or 200 HTTP threads, gave the same review rate within the noise
 * (results/README.md).
 *
 * @param httpPort HTTP port of the embedded server (0: any free port); unused in a WAR
 * @param httpThreads request threads of the embedded server (a WAR uses its connector's); with
 *     async writes a thread is held only while a request is parsed or a read queries (at most
 *     {@code readInlineMax} reads at once)
 * @param publishChannels publisher threads, each owning one confirm-mode channel
 * @param publishBundleMax most writes in one broker message (a bundle) (1: one message per request)
 * @param publishBundleBytes most (estimated) body bytes in one broker message; a single larger
 *     write still goes alone
 * @param messageVersion the body version the publisher writes ({@code EventCodec}): 2, or 1 while
 *     consumers that read only version 1 still read the queue
 * @param confirmTimeoutMs how long a write may wait in total, queue plus confirm, before it is
 *     answered 503
 * @param publishQueueMax most writes waiting for a publisher before new ones get 503
 * @param maxImageBytes largest accepted {@code image} part (bigger is 413)
 * @param dbPoolSize connections of the read pool, and as many read threads ({@code ReadThreads})
 * @param readInlineMax most GETs querying on their request threads at once ({@code ReadThreads})
 * @param readQueueMax most GETs waiting for a read thread, and most GET /review queued for the
 *     group reader, before new ones get 503
 * @param readWait how {@code GET /albums/{albumID}} waits for an acknowledged album (read-your-
 *     writes; its own declarations in {@link ReadWaitSettings})
 * @param readCache what the GETs answer from memory ({@link ReadCacheSettings})
 * @param readGroup how the GETs' queries are grouped ({@link ReadGroupSettings})
 */
public record ServerSettings(
    int httpPort,
    int httpThreads,
    int publishChannels,
    int publishBundleMax,
    int publishBundleBytes,
    int messageVersion,
    int confirmTimeoutMs,
    int publishQueueMax,
    int maxImageBytes,
    int dbPoolSize,
    int readInlineMax,
    int readQueueMax,
    ReadWaitSettings readWait,
    ReadCacheSettings readCache,
    ReadGroupSettings readGroup) {

  /**
   * 32: requests beyond them wait in Tomcat's queue and then run to their end, instead of hundreds
   * of threads taking turns on the cores; against 200 on 2 cores, the readers' p99 beside 256
   * writers 0.78x to 0.86x and the writes' rate the same or higher ({@code
   * results/reads/request-threads/}).
   */
  public static final Setting<Integer> HTTP_THREADS =
      Setting.integer("ALBUMSTORE_HTTP_THREADS", 32, 4, 2000)
          .withFlag("--http-threads", "N")
          .withHelp("Request threads of the embedded Tomcat");

  public static final Setting<Integer> DB_POOL_SIZE =
      Setting.integer("ALBUMSTORE_DB_POOL_SIZE", 8, 1, 500)
          .withFlag("--db-pool-size", "N")
          .withHelp("Read connections");

  /**
   * 24: three times the read pool's connections, so that a busy but healthy database queues its
   * reads on their request threads (the cheaper queue), and below the 32 request threads, so that a
   * stuck one leaves the rest to the writes (which hold one only while they are parsed).
   */
  public static final Setting<Integer> READ_INLINE_MAX =
      Setting.integer("ALBUMSTORE_READ_INLINE_MAX", 24, 1, 100_000)
          .withFlag("--read-inline-max", "N")
          .withHelp(
              "Most GET /albums querying on their request threads at once (running, or waiting"
                  + " for a read connection); beyond, a GET waits for the database without a"
                  + " request thread (a GET /review always does, unless it asks alone). Keep it"
                  + " below the request threads (--http-threads, or a WAR connector's"
                  + " maxThreads): writes need the rest");

  public static final Setting<Integer> READ_QUEUE_MAX =
      Setting.integer("ALBUMSTORE_READ_QUEUE_MAX", 1000, 1, 1_000_000)
          .withFlag("--read-queue-max", "N")
          .withHelp(
              "Most GETs waiting for the database without a request thread, in each of its two"
                  + " queues (GET /albums for a read thread, GET /review for the group reader);"
                  + " beyond, 503 with Retry-After");

  public static final Setting<Integer> PUBLISH_CHANNELS =
      Setting.integer("ALBUMSTORE_PUBLISH_CHANNELS", 4, 1, 64)
          .withFlag("--publish-channels", "N")
          .withHelp(
              "Publisher threads, one confirm-mode channel each: the most messages in flight (a"
                  + " second goes only while a full bundle waits)");

  /**
   * A bundle is one broker message of many writes ("batch" is the consumer's transaction); the
   * names before that distinction are still read.
   */
  public static final Setting<Integer> PUBLISH_BUNDLE_MAX =
      Setting.integer("ALBUMSTORE_PUBLISH_BUNDLE_MAX", 256, 1, 10_000)
          .withFlag("--publish-bundle-max", "N")
          .withHelp("Most writes per broker message (bundle), 1 = one message per request")
          .withFormerName("ALBUMSTORE_PUBLISH_BATCH_MAX", "--publish-batch-max");

  /**
   * What a message holds besides the image or the bundled writes' estimates, at most: the IDs, the
   * longest profile, the JSON around them. Far more than they take; the point is that it is not 0.
   */
  private static final int MESSAGE_ROOM = 64 * 1024;

  public static final Setting<Integer> PUBLISH_BUNDLE_BYTES =
      Setting.integer(
              "ALBUMSTORE_PUBLISH_BUNDLE_BYTES",
              1024 * 1024,
              1024,
              EventCodec.MAX_MESSAGE_BYTES - MESSAGE_ROOM)
          .withFlag("--publish-bundle-bytes", "BYTES")
          .withHelp("Most body bytes per broker message (bundle)")
          .withFormerName("ALBUMSTORE_PUBLISH_BATCH_BYTES", "--publish-batch-bytes");

  /**
   * 3 carries each reviewed album's latest review time, 2 counts a message's unkeyed reviews per
   * album: about 12 bytes per review on the wire instead of about 80, which the broker and both
   * ends pay per byte (results/server-cpu-ab/). A consumer older than a version dead-letters its
   * messages, so a rolling upgrade upgrades consumers first; a server pinned to the older version
   * keeps a rollback of the consumers free (deploy/UPGRADE.md).
   */
  public static final Setting<Integer> MESSAGE_VERSION =
      Setting.integer(
              "ALBUMSTORE_MESSAGE_VERSION",
              EventCodec.VERSION,
              EventCodec.OLDEST_VERSION,
              EventCodec.VERSION)
          .withFlag("--message-version", "N")
          .withHelp(
              "Body version of the messages: 3 adds review times, 2 counts unkeyed reviews; an"
                  + " older one while older consumers remain");

  public static final Setting<Integer> CONFIRM_TIMEOUT_MS =
      Setting.integer("ALBUMSTORE_CONFIRM_TIMEOUT_MS", 5000, 100, 120_000)
          .withFlag("--confirm-timeout-ms", "MS")
          .withHelp(
              "Longest wait for a publisher and for the broker's confirm before a write is"
                  + " answered 503");

  public static final Setting<Integer> PUBLISH_QUEUE_MAX =
      Setting.integer("ALBUMSTORE_PUBLISH_QUEUE_MAX", 20_000, 1, 10_000_000)
          .withFlag("--publish-queue-max", "N")
          .withHelp("Most writes waiting to be published; beyond, writes get 503 at once");

  /**
   * The largest image an album's message can carry within {@link EventCodec#MAX_MESSAGE_BYTES}:
   * base64 makes it 4/3 larger, and the rest of the message needs {@link #MESSAGE_ROOM}. (12 MiB,
   * the limit before, is exactly 16 MiB in base64: RabbitMQ 4 refused every such album, and the
   * server answered 503 to it for good.)
   */
  public static final int MAX_IMAGE_LIMIT = (EventCodec.MAX_MESSAGE_BYTES - MESSAGE_ROOM) / 4 * 3;

  public static final Setting<Integer> MAX_IMAGE_BYTES =
      Setting.integer("ALBUMSTORE_MAX_IMAGE_BYTES", 10 * 1024 * 1024, 1, MAX_IMAGE_LIMIT)
          .withFlag("--max-image-bytes", "BYTES")
          .withHelp("Largest accepted image; larger is 413");

  /**
   * {@code true} registers the do-nothing {@code /bench/noop} of bench/; off by default, and no
   * flag: only bench/ sets it.
   */
  public static final Setting<Boolean> BENCH_ENDPOINTS =
      Setting.bool("ALBUMSTORE_BENCH_ENDPOINTS", false)
          .withHelp("Registers the do-nothing /bench/noop of bench/");

  /**
   * Every setting the server reads, in the order of {@code --help}: the launcher's flags, and what
   * the embedded server hands its web application as context init parameters.
   */
  public static final List<Setting<?>> DECLARED =
      Stream.of(
              List.<Setting<?>>of(CommonSettings.HTTP_PORT, HTTP_THREADS),
              CommonSettings.SERVICE,
              List.<Setting<?>>of(
                  DB_POOL_SIZE,
                  READ_INLINE_MAX,
                  READ_QUEUE_MAX,
                  PUBLISH_CHANNELS,
                  PUBLISH_BUNDLE_MAX,
                  PUBLISH_BUNDLE_BYTES,
                  MESSAGE_VERSION,
                  CONFIRM_TIMEOUT_MS,
                  PUBLISH_QUEUE_MAX,
                  MAX_IMAGE_BYTES),
              ReadWaitSettings.DECLARED,
              ReadCacheSettings.DECLARED,
              ReadGroupSettings.DECLARED,
              MetricsPort.DECLARED,
              List.<Setting<?>>of(DrainDelay.DELAY_MS, BENCH_ENDPOINTS, LogFormat.SETTING))
          .flatMap(List::stream)
          .toList();

  public static ServerSettings defaults() {
    return from(Env.of(Map.of()));
  }

  public static ServerSettings from(Env env) {
    return new ServerSettings(
        CommonSettings.HTTP_PORT.read(env),
        HTTP_THREADS.read(env),
        PUBLISH_CHANNELS.read(env),
        PUBLISH_BUNDLE_MAX.read(env),
        PUBLISH_BUNDLE_BYTES.read(env),
        MESSAGE_VERSION.read(env),
        CONFIRM_TIMEOUT_MS.read(env),
        PUBLISH_QUEUE_MAX.read(env),
        MAX_IMAGE_BYTES.read(env),
        DB_POOL_SIZE.read(env),
        READ_INLINE_MAX.read(env),
        READ_QUEUE_MAX.read(env),
        ReadWaitSettings.from(env),
        ReadCacheSettings.from(env),
        ReadGroupSettings.from(env));
  }

  /**
   * Every server setting's value in {@code env} (or its default), as {@code ALBUMSTORE_*} text:
   * what the embedded server passes its web application, so that the environment of its JVM cannot
   * change what was resolved.
   *
   * @throws IllegalArgumentException naming the variable when a value does not parse
   */
  public static Map<String, String> resolve(Env env) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Setting<?> s : DECLARED) {
      m.put(s.variable(), s.readText(env));
    }
    return m;
  }
}
