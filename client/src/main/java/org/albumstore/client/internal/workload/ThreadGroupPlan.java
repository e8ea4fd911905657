package org.albumstore.client.internal.workload;

import java.time.Duration;

/**
 * The shape of the load: {@code groups} groups of {@code groupSize} writer threads, started {@code
 * delay} apart, plus {@code readers} reader threads while the groups after the first still run.
 */
public record ThreadGroupPlan(int groupSize, int groups, Duration delay, int readers) {
  public ThreadGroupPlan {
    if (groupSize < 1 || groups < 1 || readers < 0 || delay.isNegative()) {
      throw new IllegalArgumentException(
          "need groupSize >= 1, groups >= 1, readers >= 0, delay >= 0; got "
              + groupSize
              + ", "
              + groups
              + ", "
              + readers
              + ", "
              + delay);
    }
  }

  public int writers() {
    return groupSize * groups;
  }
}
