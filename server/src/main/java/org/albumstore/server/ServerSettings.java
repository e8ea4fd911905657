package org.albumstore.server;

import java.util.LinkedHashMap;
import java.util.Map;
import org.albumstore.common.config.Defaults;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Keys;
import org.albumstore.server.read.ReadWaitSettings;

/**
 * The server's own settings (the broker and the database are {@code AmqpSettings} and {@code
 * DatabaseSettings} of common), read once at start-up and passed in.
 *
 * <p>The defaults are compile-time constants so that the launcher's {@code --help} can state them.
 * Why these values: 4 channels give 4 batches in flight, which with group commit is plenty on 2
 * cores; 256 events per message keeps a message far below the broker's frame and message limits
 * while amortising the confirm; a 20,000-write queue is a few seconds of peak load, after which
 * shedding with 503 beats queueing requests the client has already given up on. Measured side by
 * side ({@code bench/ceiling.sh 3 15 256}, results/ceiling/): group commit (about 23 requests per
 * message) served 7.0x the requests of one message per request with the same 4 channels, and 4.4x
 * one message per request with 64 channels; so group commit stays the default. 2, 4 and 8 channels,
 * and 16, 32 or 200 HTTP threads, gave the same review rate within the noise (results/README.md).
 *
 * @param httpPort HTTP port of the embedded server (0: any free port); unused in a WAR
 * @param httpThreads request threads of the embedded server (a WAR uses its connector's); with
 *     async writes a thread is held only while a request is parsed or a read is served
 * @param publishChannels publisher threads, each owning one confirm-mode channel
 * @param publishBatchMax most writes in one broker message (1: one message per request)
 * @param publishBatchBytes most (estimated) body bytes in one broker message; a single larger write
 *     still goes alone
 * @param confirmTimeoutMs how long a write may wait in total, queue plus confirm, before it is
 *     answered 503
 * @param publishQueueMax most writes waiting for a publisher before new ones get 503
 * @param maxImageBytes largest accepted {@code image} part (bigger is 413)
 * @param dbPoolSize connections of the read pool
 * @param readWait how {@code GET /albums/{albumID}} waits for an acknowledged album (read-your-
 *     writes; its own declarations in {@link ReadWaitSettings})
 */
public record ServerSettings(
    int httpPort,
    int httpThreads,
    int publishChannels,
    int publishBatchMax,
    int publishBatchBytes,
    int confirmTimeoutMs,
    int publishQueueMax,
    int maxImageBytes,
    int dbPoolSize,
    ReadWaitSettings readWait) {

  public static final String HTTP_THREADS = "ALBUMSTORE_HTTP_THREADS";
  public static final String PUBLISH_CHANNELS = "ALBUMSTORE_PUBLISH_CHANNELS";
  public static final String PUBLISH_BATCH_MAX = "ALBUMSTORE_PUBLISH_BATCH_MAX";
  public static final String PUBLISH_BATCH_BYTES = "ALBUMSTORE_PUBLISH_BATCH_BYTES";
  public static final String CONFIRM_TIMEOUT_MS = "ALBUMSTORE_CONFIRM_TIMEOUT_MS";
  public static final String PUBLISH_QUEUE_MAX = "ALBUMSTORE_PUBLISH_QUEUE_MAX";
  public static final String MAX_IMAGE_BYTES = "ALBUMSTORE_MAX_IMAGE_BYTES";
  public static final String DB_POOL_SIZE = "ALBUMSTORE_DB_POOL_SIZE";

  public static final int DEFAULT_HTTP_THREADS = 200;
  public static final int DEFAULT_PUBLISH_CHANNELS = 4;
  public static final int DEFAULT_PUBLISH_BATCH_MAX = 256;
  public static final int DEFAULT_PUBLISH_BATCH_BYTES = 1024 * 1024;
  public static final int DEFAULT_CONFIRM_TIMEOUT_MS = 5000;
  public static final int DEFAULT_PUBLISH_QUEUE_MAX = 20_000;
  public static final int DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
  public static final int DEFAULT_DB_POOL_SIZE = 8;

  /** RabbitMQ refuses messages above 16 MiB by default (base64 inflates images by 4/3). */
  public static final int MAX_IMAGE_LIMIT = 12 * 1024 * 1024;

  public static ServerSettings defaults() {
    return from(Env.of(Map.of()));
  }

  public static ServerSettings from(Env env) {
    return new ServerSettings(
        env.getInt(Keys.HTTP_PORT, Defaults.HTTP_PORT, 0, 65535),
        env.getInt(HTTP_THREADS, DEFAULT_HTTP_THREADS, 4, 2000),
        env.getInt(PUBLISH_CHANNELS, DEFAULT_PUBLISH_CHANNELS, 1, 64),
        env.getInt(PUBLISH_BATCH_MAX, DEFAULT_PUBLISH_BATCH_MAX, 1, 10_000),
        env.getInt(PUBLISH_BATCH_BYTES, DEFAULT_PUBLISH_BATCH_BYTES, 1024, 64 * 1024 * 1024),
        env.getInt(CONFIRM_TIMEOUT_MS, DEFAULT_CONFIRM_TIMEOUT_MS, 100, 120_000),
        env.getInt(PUBLISH_QUEUE_MAX, DEFAULT_PUBLISH_QUEUE_MAX, 1, 10_000_000),
        env.getInt(MAX_IMAGE_BYTES, DEFAULT_MAX_IMAGE_BYTES, 1, MAX_IMAGE_LIMIT),
        env.getInt(DB_POOL_SIZE, DEFAULT_DB_POOL_SIZE, 1, 500),
        ReadWaitSettings.from(env));
  }

  /** These settings as {@code ALBUMSTORE_*} values, e.g. to pass them as context parameters. */
  public Map<String, String> asEnvMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(Keys.HTTP_PORT, Integer.toString(httpPort));
    m.put(HTTP_THREADS, Integer.toString(httpThreads));
    m.put(PUBLISH_CHANNELS, Integer.toString(publishChannels));
    m.put(PUBLISH_BATCH_MAX, Integer.toString(publishBatchMax));
    m.put(PUBLISH_BATCH_BYTES, Integer.toString(publishBatchBytes));
    m.put(CONFIRM_TIMEOUT_MS, Integer.toString(confirmTimeoutMs));
    m.put(PUBLISH_QUEUE_MAX, Integer.toString(publishQueueMax));
    m.put(MAX_IMAGE_BYTES, Integer.toString(maxImageBytes));
    m.put(DB_POOL_SIZE, Integer.toString(dbPoolSize));
    m.putAll(readWait.asEnvMap());
    return m;
  }
}
