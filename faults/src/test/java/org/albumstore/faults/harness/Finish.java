package org.albumstore.faults.harness;

import java.time.Duration;

/**
 * How every load scenario ends: wait for the queue to drain, stop the consumer with SIGTERM (it
 * must exit 0), audit, and delete the run's rows whatever the verdict.
 */
public final class Finish {
  /**
   * The audit and how the last consumer stopped: {@code cleanStop} when it exited by itself after
   * SIGTERM (143, the JVM's status after a signal whose shutdown hooks ran, or 0) and logged its
   * final counters, i.e. its shutdown hook finished its batches and closed everything.
   */
  public record Outcome(
      Audit.Result audit, int consumerExit, boolean cleanStop, long redeliveries) {
    public String stopDescription() {
      return cleanStop
          ? "clean stop on SIGTERM (exit " + consumerExit + ")"
          : "UNCLEAN stop, exit " + consumerExit;
    }
  }

  private Finish() {}

  public static Outcome drainStopAndAudit(
      Stack stack, AcknowledgedWrites acknowledged, long expectedDeadLetters) throws Exception {
    try (Audit audit = new Audit(acknowledged, stack.amqp, stack.db)) {
      try {
        audit.awaitDrained(Duration.ofSeconds(90));
        ConsumerProcess last = stack.lastConsumer();
        int exit = stack.stopConsumer();
        boolean clean = (exit == 143 || exit == 0) && last.stoppedCounter("messagesApplied") >= 0;
        Audit.Result result = audit.check(expectedDeadLetters);
        return new Outcome(result, exit, clean, stack.redeliveries());
      } finally {
        audit.deleteRows();
      }
    }
  }
}
