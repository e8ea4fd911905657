package org.albumstore.server;

import static org.albumstore.common.config.ServiceOptions.putIfGiven;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.albumstore.common.config.Defaults;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Keys;
import org.albumstore.common.config.ServiceOptions;
import org.albumstore.server.metrics.MetricsPort;
import org.albumstore.server.read.ReadWaitSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The command line of {@code java -jar albumstore-server.jar}. Every flag mirrors an {@code
 * ALBUMSTORE_*} variable: a flag given wins, else the variable, else the default its help states.
 * Flags are null when not given, so that the environment still applies and a password taken from
 * the environment is never printed by {@code --help}.
 */
@Command(
    name = "albumstore-server",
    mixinStandardHelpOptions = true,
    version = "albumstore-server 1.0.0",
    sortOptions = false,
    description = {
      "Album Store HTTP server (embedded Tomcat) under " + Defaults.CONTEXT_PATH + ".",
      "Writes are published to RabbitMQ with publisher confirms; reads come from PostgreSQL.",
      "On SIGTERM / Ctrl-C: /health answers 503 for the drain delay, requests in flight are"
          + " answered, then it stops."
    })
final class ServerCommand implements Callable<Integer> {
  @Option(
      names = "--port",
      paramLabel = "PORT",
      description =
          "HTTP port, 0 for any free port (env "
              + Keys.HTTP_PORT
              + "). Default: "
              + Defaults.HTTP_PORT)
  Integer port;

  @Option(
      names = "--http-threads",
      paramLabel = "N",
      description =
          "Request threads of the embedded Tomcat (env "
              + ServerSettings.HTTP_THREADS
              + "). Default: "
              + ServerSettings.DEFAULT_HTTP_THREADS)
  Integer httpThreads;

  @Mixin ServiceOptions service = new ServiceOptions();

  @Option(
      names = "--db-pool-size",
      paramLabel = "N",
      description =
          "Read connections (env "
              + ServerSettings.DB_POOL_SIZE
              + "). Default: "
              + ServerSettings.DEFAULT_DB_POOL_SIZE)
  Integer dbPoolSize;

  @Option(
      names = "--publish-channels",
      paramLabel = "N",
      description =
          "Publisher threads, one confirm-mode channel each (env "
              + ServerSettings.PUBLISH_CHANNELS
              + "). Default: "
              + ServerSettings.DEFAULT_PUBLISH_CHANNELS)
  Integer publishChannels;

  @Option(
      names = "--publish-batch-max",
      paramLabel = "N",
      description =
          "Most writes per broker message, 1 = one message per request (env "
              + ServerSettings.PUBLISH_BATCH_MAX
              + "). Default: "
              + ServerSettings.DEFAULT_PUBLISH_BATCH_MAX)
  Integer publishBatchMax;

  @Option(
      names = "--publish-batch-bytes",
      paramLabel = "BYTES",
      description =
          "Most body bytes per broker message (env "
              + ServerSettings.PUBLISH_BATCH_BYTES
              + "). Default: "
              + ServerSettings.DEFAULT_PUBLISH_BATCH_BYTES)
  Integer publishBatchBytes;

  @Option(
      names = "--confirm-timeout-ms",
      paramLabel = "MS",
      description =
          "Longest wait for a publisher and for the broker's confirm before a write is"
              + " answered 503 (env "
              + ServerSettings.CONFIRM_TIMEOUT_MS
              + "). Default: "
              + ServerSettings.DEFAULT_CONFIRM_TIMEOUT_MS)
  Integer confirmTimeoutMs;

  @Option(
      names = "--publish-queue-max",
      paramLabel = "N",
      description =
          "Most writes waiting to be published; beyond, writes get 503 at once (env "
              + ServerSettings.PUBLISH_QUEUE_MAX
              + "). Default: "
              + ServerSettings.DEFAULT_PUBLISH_QUEUE_MAX)
  Integer publishQueueMax;

  @Option(
      names = "--max-image-bytes",
      paramLabel = "BYTES",
      description =
          "Largest accepted image; larger is 413 (env "
              + ServerSettings.MAX_IMAGE_BYTES
              + "). Default: "
              + ServerSettings.DEFAULT_MAX_IMAGE_BYTES)
  Integer maxImageBytes;

  @Mixin ReadWaitOptions readWait = new ReadWaitOptions();

  // Where GET /metrics answers (MetricsPort): with the API by default, else on a management port.
  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      description =
          "The port that alone serves GET /metrics, 0 for any free one; -1 serves them with the"
              + " API (env "
              + MetricsPort.PORT
              + "). Default: "
              + MetricsPort.DEFAULT_PORT)
  Integer metricsPort;

  @Option(
      names = "--metrics-address",
      paramLabel = "ADDRESS",
      description =
          "Address the metrics port binds to (env "
              + MetricsPort.ADDRESS
              + "). Default: "
              + MetricsPort.DEFAULT_ADDRESS)
  String metricsAddress;

  @Option(
      names = "--drain-delay-ms",
      paramLabel = "MS",
      description =
          "On SIGTERM, how long /health answers 503 while requests are still served, so that"
              + " the load balancer stops routing here; then requests in flight are awaited"
              + " (env "
              + DrainDelay.DELAY_MS
              + "). Default: "
              + DrainDelay.DEFAULT_DELAY_MS)
  Integer drainDelayMs;

  @Override
  public Integer call() throws InterruptedException {
    final AlbumStoreServer server;
    final Duration drainDelay;
    try {
      Env env = Env.system().withOverrides(overrides());
      drainDelay = DrainDelay.from(env);
      server = AlbumStoreServer.start(env);
    } catch (IllegalArgumentException e) {
      System.err.println("albumstore-server: " + e.getMessage());
      return 2;
    } catch (IllegalStateException e) {
      System.err.println("albumstore-server: " + e.getMessage());
      return 1;
    }
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> server.drainAndClose(drainDelay), "albumstore-shutdown"));
    server.awaitClose();
    return 0;
  }

  /** The flags that were given, under their variable names. */
  Map<String, String> overrides() {
    Map<String, String> m = new HashMap<>();
    putIfGiven(m, Keys.HTTP_PORT, port);
    putIfGiven(m, ServerSettings.HTTP_THREADS, httpThreads);
    service.putGiven(m);
    putIfGiven(m, ServerSettings.DB_POOL_SIZE, dbPoolSize);
    putIfGiven(m, ServerSettings.PUBLISH_CHANNELS, publishChannels);
    putIfGiven(m, ServerSettings.PUBLISH_BATCH_MAX, publishBatchMax);
    putIfGiven(m, ServerSettings.PUBLISH_BATCH_BYTES, publishBatchBytes);
    putIfGiven(m, ServerSettings.CONFIRM_TIMEOUT_MS, confirmTimeoutMs);
    putIfGiven(m, ServerSettings.PUBLISH_QUEUE_MAX, publishQueueMax);
    putIfGiven(m, ServerSettings.MAX_IMAGE_BYTES, maxImageBytes);
    readWait.putGiven(m);
    putIfGiven(m, MetricsPort.PORT, metricsPort);
    putIfGiven(m, MetricsPort.ADDRESS, metricsAddress);
    putIfGiven(m, DrainDelay.DELAY_MS, drainDelayMs);
    return m;
  }

  /** The flags of {@link ReadWaitSettings}: how GET /albums/{albumID} waits for a new album. */
  static final class ReadWaitOptions {
    @Option(
        names = "--read-wait-ms",
        paramLabel = "MS",
        description =
            "Longest a GET /albums/{albumID} waits for an acknowledged album before 404, 0 ="
                + " never wait (env "
                + ReadWaitSettings.MAX_WAIT_MS
                + "). Default: "
                + ReadWaitSettings.DEFAULT_MAX_WAIT_MS)
    Integer maxWaitMs;

    @Option(
        names = "--read-wait-window-ms",
        paramLabel = "MS",
        description =
            "How old a new album's ID may be and still be waited for; older IDs get 404 at once"
                + " (env "
                + ReadWaitSettings.WINDOW_MS
                + "). Default: "
                + ReadWaitSettings.DEFAULT_WINDOW_MS)
    Integer windowMs;

    @Option(
        names = "--read-wait-clock-skew-ms",
        paramLabel = "MS",
        description =
            "How far ahead of this server's clock a new album's ID may be (another server's"
                + " clock) (env "
                + ReadWaitSettings.CLOCK_SKEW_MS
                + "). Default: "
                + ReadWaitSettings.DEFAULT_CLOCK_SKEW_MS)
    Integer clockSkewMs;

    @Option(
        names = "--read-waiters-max",
        paramLabel = "N",
        description =
            "Most GETs waiting at once; beyond, 503 with Retry-After (env "
                + ReadWaitSettings.MAX_WAITERS
                + "). Default: "
                + ReadWaitSettings.DEFAULT_MAX_WAITERS)
    Integer maxWaiters;

    @Option(
        names = "--read-wait-poll-ms",
        paramLabel = "MS",
        description =
            "Time between two checks (one query) for the albums waited for (env "
                + ReadWaitSettings.POLL_INTERVAL_MS
                + "). Default: "
                + ReadWaitSettings.DEFAULT_POLL_INTERVAL_MS)
    Integer pollIntervalMs;

    void putGiven(Map<String, String> m) {
      putIfGiven(m, ReadWaitSettings.MAX_WAIT_MS, maxWaitMs);
      putIfGiven(m, ReadWaitSettings.WINDOW_MS, windowMs);
      putIfGiven(m, ReadWaitSettings.CLOCK_SKEW_MS, clockSkewMs);
      putIfGiven(m, ReadWaitSettings.MAX_WAITERS, maxWaiters);
      putIfGiven(m, ReadWaitSettings.POLL_INTERVAL_MS, pollIntervalMs);
    }
  }
}
