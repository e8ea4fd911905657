package org.albumstore.client.internal.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Waits between attempts. A seam so that retry tests run without real waiting. */
@FunctionalInterface
public interface Sleeper {
  Sleeper REAL = d -> TimeUnit.NANOSECONDS.sleep(d.toNanos());

  void sleep(Duration duration) throws InterruptedException;
}
