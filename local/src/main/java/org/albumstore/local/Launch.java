package org.albumstore.local;

import java.time.Duration;

/** One launch of a stack and its client run: the single stack or the cluster. */
interface Launch {
  /** Runs to the end; returns the exit code. */
  int call();

  /** The Ctrl-C path; returns whether the launch has finished within {@code limit}. */
  boolean stop(Duration limit);
}
