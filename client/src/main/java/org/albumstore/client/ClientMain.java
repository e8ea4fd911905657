package org.albumstore.client;

import io.netty.util.ResourceLeakDetector;
import java.io.PrintStream;
import java.time.Duration;
import org.albumstore.common.config.Env;

/**
 * The load client's entry points: {@link #main} for {@code java -jar client.jar}, {@link #run} and
 * {@link #execute} for code (the {@code local/} module, tests), which never exit the JVM. Code that
 * must be able to stop a run holds a {@link ClientRun} instead.
 *
 * <p>Output: the final report on stdout, the progress line and logs on stderr, the run's files in
 * {@code --out}.
 */
public final class ClientMain {
  /** How long Ctrl-C waits for the stopped run to write its report. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(60);

  private static final String NETTY_JFR = "io.netty.jfr.enabled";

  private ClientMain() {}

  public static void main(String[] args) {
    // Netty samples one buffer in 128 for leaks, with a stack trace each: 2.3% of the client's CPU
    // under load (bench/profile-client.sh). The tests keep the sampling (they do not come here);
    // -Dio.netty.leakDetection.level turns it back on for a run.
    if (System.getProperty("io.netty.leakDetection.level") == null) {
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }
    // Netty's buffer allocator registers its JFR event types when first used, disabled or not:
    // JFR's metadata and handlers, 98 classes loaded before the first request
    // (results/client-cost/start-up/class-load-before.txt).
    // -Dio.netty.jfr.enabled=true keeps them for a recording that wants them.
    if (System.getProperty(NETTY_JFR) == null) {
      System.setProperty(NETTY_JFR, "false");
    }
    ClientRun run = new ClientRun(Env.system(), System.out, System.err, args);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    run.stop(STOP_WAIT);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "client-shutdown"));
    System.exit(run.execute().exitCode());
  }

  /**
   * Runs the client as the command line would.
   *
   * @return the exit code (see {@link ClientResult#exitCode()})
   */
  public static int run(String... args) {
    return execute(args).exitCode();
  }

  /** Runs the client as the command line would and returns the summary too. */
  public static ClientResult execute(String... args) {
    return execute(Env.system(), System.out, System.err, args);
  }

  /** As {@link ClientRun#execute()}. */
  public static ClientResult execute(Env env, PrintStream out, PrintStream err, String... args) {
    return new ClientRun(env, out, err, args).execute();
  }
}
