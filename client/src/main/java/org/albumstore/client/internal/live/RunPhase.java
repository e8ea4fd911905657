package org.albumstore.client.internal.live;

import java.util.Locale;

/** Where a run is, in order: what the live page and {@code albumstore_client_run_phase} show. */
public enum RunPhase {
  STARTING,
  WARMUP,
  LOAD,
  DRAIN,
  VERIFY,
  REPORT,
  DONE;

  /** The word the page and the metric's {@code phase} tag use, e.g. {@code load}. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}
