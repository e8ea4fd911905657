package org.albumstore.local;

import java.time.Duration;

/** One launch of a stack and its client run: the single stack or the cluster. */
interface Launch {
  /** The longest Ctrl-C may take: the client's report, the consumer's last batches, pg_ctl stop. */
  Duration SHUTDOWN_LIMIT = Duration.ofSeconds(60);

  /** Runs to the end; returns the exit code. */
  int call();

  /** The Ctrl-C path; returns whether the launch has finished within {@code limit}. */
  boolean stop(Duration limit);
}
