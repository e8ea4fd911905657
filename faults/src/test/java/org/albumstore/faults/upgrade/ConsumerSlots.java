package org.albumstore.faults.upgrade;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.albumstore.faults.harness.ClusterWorld;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Release;
import org.albumstore.faults.nemesis.ClusterInjector;
import org.albumstore.faults.nemesis.Fault;
import org.albumstore.faults.nemesis.FaultKind;
import org.albumstore.faults.nemesis.Nemesis;

/**
 * The consumers by index, shared by the upgrade's steps and the fault's lane, which would otherwise
 * race: a step that replaces or stops consumer {@code i} and a kill of {@code i} or its heal run
 * one after the other, never at once (this object's monitor), and a consumer the upgrade stopped on
 * purpose is neither killed nor started again by the fault's heal. A kill's heal starts the release
 * the killed consumer ran, as a supervisor restarts what was deployed ({@link ClusterInjector}).
 * Faults of the other tiers pass through unguarded, so a node's slow heal never holds a step.
 *
 * <p>Why a consumer is stopped before its successor starts, not after: the old one finishes and
 * acknowledges its batch on SIGTERM and what it has not taken stays queued for the others, so
 * nothing waits on the gap; and the two releases never apply side by side on one instance's
 * resources (its database connections, its memory), as on a host where the new package replaces the
 * old.
 */
final class ConsumerSlots implements Nemesis.Injector {
  /** How long a consumer may take to finish its batch and exit on SIGTERM. */
  private static final Duration TERM_LIMIT = Duration.ofSeconds(30);

  /** How long a start that fails (the broker did not answer: a node paused) is tried again. */
  private static final Duration START_LIMIT = Duration.ofSeconds(90);

  /** A consumer replaced: the one that went, its exit, what it dead-lettered, the new one. */
  record Replaced(ConsumerProcess old, int exit, long deadLettered, ConsumerProcess replacement) {}

  private final ClusterWorld world;
  private final ClusterInjector injector;
  private final int size;
  private final Set<Integer> stopped = new HashSet<>();
  private final Set<Fault> skipped = new HashSet<>();
  private final List<String> notes = new ArrayList<>();

  ConsumerSlots(ClusterWorld world, ClusterInjector injector, int size) {
    this.world = world;
    this.injector = injector;
    this.size = size;
  }

  @Override
  public void inject(Fault f) throws Exception {
    if (f.kind().tier() != FaultKind.Tier.CONSUMER) {
      injector.inject(f);
      return;
    }
    synchronized (this) {
      if (stopped.contains(f.target())) {
        skipped.add(f); // nothing runs there to kill, and the heal must not start one
        notes.add(f.kind() + " #" + f.target() + ": the upgrade had stopped it; nothing killed");
        return;
      }
      injector.inject(f);
    }
  }

  @Override
  public void heal(Fault f) throws Exception {
    if (f.kind().tier() != FaultKind.Tier.CONSUMER) {
      injector.heal(f);
      return;
    }
    synchronized (this) {
      if (!skipped.remove(f) && !stopped.contains(f.target())) {
        injector.heal(f);
      }
    }
  }

  /** Replaces consumer {@code i} (or starts one where it was stopped) by one of {@code release}. */
  synchronized Replaced replace(int i, Release release) throws Exception {
    ConsumerProcess old = injector.consumer(i);
    int exit = old.terminate(TERM_LIMIT);
    ConsumerProcess next = world.startConsumerSupervised(release, START_LIMIT);
    injector.replacedConsumer(i, next);
    stopped.remove(i);
    return new Replaced(old, exit, Math.max(0, old.stoppedCounter("deadLettered")), next);
  }

  /** Stops consumer {@code i} with SIGTERM and starts none in its place. */
  synchronized Replaced stop(int i) throws Exception {
    ConsumerProcess old = injector.consumer(i);
    int exit = old.terminate(TERM_LIMIT);
    stopped.add(i);
    return new Replaced(old, exit, Math.max(0, old.stoppedCounter("deadLettered")), null);
  }

  /** What the fault could not do as drawn, and why. */
  synchronized List<String> notes() {
    return List.copyOf(notes);
  }

  /** The consumer at each index now: none where one was stopped. */
  synchronized List<ConsumerProcess> running() {
    List<ConsumerProcess> out = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      if (!stopped.contains(i)) {
        out.add(injector.consumer(i));
      }
    }
    return out;
  }
}
