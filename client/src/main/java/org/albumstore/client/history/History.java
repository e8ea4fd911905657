package org.albumstore.client.history;

import java.util.List;

/**
 * A history as read from its file.
 *
 * @param runId the run that wrote it
 * @param originEpochMillis the wall-clock time of its time origin
 * @param operations in the order they completed (roughly: the order they were queued)
 * @param complete whether the trailer was there: the writer closed it
 * @param lost attempts the writer could not record (the trailer's count)
 */
public record History(
    String runId, long originEpochMillis, List<Operation> operations, boolean complete, long lost) {
  public History {
    operations = List.copyOf(operations);
  }

  /** Whether every attempt of the run is in it: the checker judges only such a history. */
  public boolean isWhole() {
    return complete && lost == 0;
  }
}
