package org.albumstore.client.internal.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A load's end on another process's signal ({@code --end-file}): true once a file exists, and from
 * then on, also when the file goes again. Every writer asks it at each iteration, so it looks at
 * the file system at most once per {@link #EVERY}, whichever writer asks.
 */
public final class EndFile implements BooleanSupplier {
  /** The longest time between two looks at the file while writers ask. */
  static final Duration EVERY = Duration.ofMillis(100);

  private final Path path;
  private final LongSupplier nanoTime;
  private final AtomicLong nextLook;
  private volatile boolean seen;

  public EndFile(Path path) {
    this(path, System::nanoTime);
  }

  EndFile(Path path, LongSupplier nanoTime) {
    this.path = path;
    this.nanoTime = nanoTime;
    this.nextLook = new AtomicLong(nanoTime.getAsLong());
  }

  @Override
  public boolean getAsBoolean() {
    if (seen) {
      return true;
    }
    long now = nanoTime.getAsLong();
    long next = nextLook.get();
    if (now - next >= 0
        && nextLook.compareAndSet(next, now + EVERY.toNanos())
        && Files.exists(path)) {
      seen = true;
    }
    return seen;
  }
}
