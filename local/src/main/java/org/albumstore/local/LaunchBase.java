package org.albumstore.local;

import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.albumstore.client.ClientResult;
import org.albumstore.client.ClientRun;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.db.Databases;
import org.albumstore.common.db.Schema;
import org.albumstore.local.LocalStack.StoppedException;

/**
 * What the single stack and the cluster launch share: the numbered steps they print, the client run
 * that starts only if no stop came first, and the Ctrl-C path (end the client run, then close the
 * stack, all within one limit).
 *
 * <p>{@link #call()} runs on the main thread, {@link #stop(Duration)} on the signal's; the client
 * step is always the last of {@link #steps}.
 */
abstract class LaunchBase implements Launch {
  protected final LaunchCommand options;
  protected final Env env;
  protected final PrintStream out;
  protected final PrintStream err;
  protected final LocalStack stack;

  /** Counted down once {@link #call()} has closed the stack: the launch has finished. */
  protected final CountDownLatch done = new CountDownLatch(1);

  private final int steps;
  private final CountDownLatch clientDone = new CountDownLatch(1);
  private final AtomicBoolean stopStarted = new AtomicBoolean();
  private volatile boolean stopRequested;

  /** The client run once created; stop() ends it. */
  private volatile ClientRun client;

  LaunchBase(LaunchCommand options, Env env, PrintStream out, PrintStream err, int steps) {
    this.options = options;
    this.env = env;
    this.out = out;
    this.err = err;
    this.stack = new LocalStack(out);
    this.steps = steps;
  }

  /** What {@link #stop} stops, in its order, for the line it prints. */
  protected abstract String stopOrder();

  protected final void step(int n, String what, long startNanos) {
    out.printf(
        Locale.ROOT,
        "[%d/%d] %s (%.1f s)%n",
        n,
        steps,
        what,
        (System.nanoTime() - startNanos) / 1e9);
  }

  /**
   * The last step: prints the client's command line and runs it to the end, unless a stop came
   * first.
   *
   * @throws StoppedException when {@link #stop} was called before the client started
   */
  protected final ClientResult runClient(List<String> args) {
    out.println("[" + steps + "/" + steps + "] client: " + ClientArguments.display(args));
    // Published before stopRequested is checked, read by stop() after setting it: one of the two
    // threads sees the other's write (both volatile), so a client is never left running.
    ClientRun run = new ClientRun(env, out, err, args.toArray(String[]::new));
    client = run;
    if (stopRequested) {
      throw new StoppedException("stopped before starting the client");
    }
    try {
      return run.execute();
    } finally {
      clientDone.countDown();
    }
  }

  /**
   * The Ctrl-C path: ends a client run (its report of what ran is still printed), stops the stack,
   * and waits for the main thread to finish, all within {@code limit}. Only the first call does
   * this; later ones (the shutdown hook after a handled signal) return at once.
   *
   * @return whether the launch has finished
   */
  @Override
  public final boolean stop(Duration limit) {
    if (done.getCount() == 0 || !stopStarted.compareAndSet(false, true)) {
      return done.getCount() == 0; // finished normally (System.exit runs the hook), or stopping
    }
    long deadline = System.nanoTime() + limit.toNanos();
    stopRequested = true;
    err.println("stopping: " + stopOrder());
    try {
      ClientRun c = client;
      if (c != null) {
        // A run that has not started yet never starts; one in progress writes its report.
        c.stop(Duration.ofNanos(remaining(deadline)));
        clientDone.await(remaining(deadline), TimeUnit.NANOSECONDS);
      }
      stack.close(Duration.ofNanos(remaining(deadline)));
      if (done.await(remaining(deadline), TimeUnit.NANOSECONDS)) {
        return true;
      }
      err.println("gave up waiting for the launcher to finish after " + limit.toSeconds() + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  /** The consumer writes into the tables at once; the schema must be there first (idempotent). */
  static void applySchema(DatabaseSettings db) throws SQLException {
    try (HikariDataSource ds = Databases.pool(db, "albumstore-schema", 1)) {
      Schema.apply(ds);
    }
  }

  private static long remaining(long deadline) {
    return Math.max(0, deadline - System.nanoTime());
  }
}
