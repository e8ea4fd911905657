package org.albumstore.client.internal.workload;

/**
 * Told about the scheduler's milestones, in order, from the scheduler's threads. The run logs them;
 * the scheduler tests use them to check the ordering.
 */
public interface WorkloadListener {
  WorkloadListener NONE = new WorkloadListener() {};

  /** Group {@code group} (0-based) has just had its threads started. */
  default void groupStarted(int group, int threads) {}

  /** The first group has finished and {@code readers} readers are being started. */
  default void readersStarted(int readers) {}

  /** Every writer has finished; the readers are being told to stop. */
  default void writersFinished() {}
}
