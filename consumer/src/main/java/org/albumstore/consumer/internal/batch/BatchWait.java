package org.albumstore.consumer.internal.batch;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * How long a partial batch waits to fill, asked at each batch ({@link BatchInbox}): the fixed wait
 * when one is configured; else the backlog wait while the queue holds a backlog; else none, so a
 * lone message is committed at once.
 *
 * @param fixedMillis {@code --batch-wait-ms}: above 0, every partial batch waits this long
 * @param backlogMillis {@code --backlog-wait-ms}: how long a partial batch waits during a backlog
 * @param backlog whether the queue holds a backlog now
 */
public record BatchWait(long fixedMillis, long backlogMillis, BooleanSupplier backlog)
    implements LongSupplier {

  /** A fixed wait, or none (0), whatever the queue holds. */
  public static BatchWait fixed(long millis) {
    return new BatchWait(millis, 0, () -> false);
  }

  @Override
  public long getAsLong() {
    if (fixedMillis > 0) {
      return fixedMillis;
    }
    return backlogMillis > 0 && backlog.getAsBoolean() ? backlogMillis : 0;
  }
}
