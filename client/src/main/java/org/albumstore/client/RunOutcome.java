package org.albumstore.client;

import java.util.List;
import org.albumstore.client.internal.broker.BrokerSampler;
import org.albumstore.client.internal.broker.DrainWaiter;
import org.albumstore.client.internal.stats.RunStatistics;
import org.albumstore.client.internal.stats.StepRow;
import org.albumstore.client.internal.stats.TimelineRow;
import org.albumstore.client.internal.tiers.TierReadings;
import org.albumstore.client.internal.workload.WorkloadScheduler;

/**
 * What a finished run recorded, as {@link LoadRun}'s phases returned it: what {@link RunReporter}
 * turns into the summary.
 *
 * @param stats the measured requests
 * @param load the measured load's times, timeline and steps
 * @param queue the broker's queue during and after the load
 * @param verification the counts' check, or why it was skipped
 * @param tiers the time per tier's two readings, or null
 * @param csvDropped rows of {@code requests.csv} dropped because the disk could not keep up
 * @param stoppedEarly whether the run was stopped (Ctrl-C)
 */
record RunOutcome(
    RunStatistics stats,
    Load load,
    Queue queue,
    RunSummary.Verification verification,
    TierReadings tiers,
    long csvDropped,
    boolean stoppedEarly) {

  /**
   * The measured load.
   *
   * @param times when it started and ended
   * @param timeline one row per second
   * @param crashedThreads load threads that died
   * @param steps per step of {@code --rate-steps}/{@code --rate-ramp}; empty without
   */
  record Load(
      WorkloadScheduler.Times times,
      List<TimelineRow> timeline,
      int crashedThreads,
      List<StepRow> steps) {}

  /**
   * The broker's queue.
   *
   * @param sampler its readings during the run
   * @param atEndOfLoad the newest reading with a depth when the load ended
   * @param drain the wait for it to drain after the load
   */
  record Queue(BrokerSampler sampler, QueueSample atEndOfLoad, DrainWaiter.Result drain) {}
}
