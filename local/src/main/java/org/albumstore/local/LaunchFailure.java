package org.albumstore.local;

import java.io.PrintStream;
import org.albumstore.local.LocalStack.StoppedException;
import org.slf4j.Logger;

/**
 * How a launch that failed ends: one line for the user and the exit code, the same for the single
 * stack and the cluster, so scripts can tell a bad option (2) from a part that could not start (3)
 * and a stop by Ctrl-C (130).
 */
final class LaunchFailure {
  private LaunchFailure() {}

  /**
   * Prints what went wrong and returns the exit code.
   *
   * @param what what could not be started, for the log, e.g. "the stack"
   */
  static int report(Exception e, PrintStream out, PrintStream err, Logger log, String what) {
    if (e instanceof StoppedException) {
      out.println(e.getMessage());
      return 130;
    }
    if (e instanceof IllegalArgumentException) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    if (e instanceof IllegalStateException) {
      err.println("error: " + e.getMessage());
      return 3;
    }
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      err.println("interrupted");
      return 130;
    }
    log.error("{} could not be started", what, e);
    err.println("error: " + e);
    return 3;
  }
}
