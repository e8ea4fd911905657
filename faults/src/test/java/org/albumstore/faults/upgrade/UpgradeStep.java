package org.albumstore.faults.upgrade;

import java.time.Duration;
import java.util.Locale;

/**
 * One step of an upgrade: what is done, to which instance, towards which release, and when it is
 * planned (from the start of the load; a step starts then, or when the step before it ends if that
 * is later: steps never overlap).
 *
 * @param target the consumer or server, by index; 0 for the steps that have none
 * @param to the release the instance runs afterwards; null for the steps that start none
 */
public record UpgradeStep(Action action, int target, Side to, Duration at) {
  /** What a step does. */
  public enum Action {
    /** N+1's {@code schema} command: the expand step, applied online under the load. */
    EXPAND,
    /** SIGTERM of a consumer (it finishes and acknowledges its batch), then one of {@code to}. */
    REPLACE_CONSUMER,
    /** SIGTERM of a consumer, none started in its place (the first step of a rollback). */
    STOP_CONSUMER,
    /** A server out of its balancer slot with SIGTERM (drained), one of {@code to} in its place. */
    REPLACE_SERVER,
    /** N+1's {@code redrive} command: the dead-letter queues moved back to the write queues. */
    REDRIVE
  }

  /** The two releases an upgrade goes between. */
  public enum Side {
    N("N"),
    N_PLUS_1("N+1");

    private final String label;

    Side(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /** What the step does, in the report's words (e.g. {@code consumer #1 -> N+1}). */
  public String what() {
    return switch (action) {
      case EXPAND -> "expand: N+1's schema command";
      case REPLACE_CONSUMER -> "consumer #" + target + " -> " + to;
      case STOP_CONSUMER -> "consumer #" + target + " stopped";
      case REPLACE_SERVER -> "server #" + target + " -> " + to;
      case REDRIVE -> "redrive: N+1's redrive command";
    };
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%6.1f s  %s", at.toMillis() / 1000.0, what());
  }
}
