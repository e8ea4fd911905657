package org.albumstore.faults.nemesis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays a {@link NemesisSchedule}: one thread per tier breaks each fault of its lane at its start
 * and heals it at its heal, so faults of different tiers overlap as drawn. A break or heal that
 * takes longer than planned (a node restart) delays only its own lane. Whatever is still broken
 * when the nemesis is closed, by a failure or an interrupt, is healed then: a run never leaves a
 * node paused, a rule in iptables or an instance down.
 */
public final class Nemesis implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Nemesis.class);

  /** What breaks and heals each kind of fault on a real topology. */
  public interface Injector {
    void inject(Fault fault) throws Exception;

    void heal(Fault fault) throws Exception;
  }

  /** What happened, when, from the start of the schedule: planned and real times can differ. */
  public record Event(Duration at, String what) {
    @Override
    public String toString() {
      return String.format("%7.1f s  %s", at.toMillis() / 1000.0, what);
    }
  }

  private final NemesisSchedule schedule;
  private final Injector injector;
  private final Set<Fault> broken = Collections.synchronizedSet(new LinkedHashSet<>());
  private final List<Event> journal = Collections.synchronizedList(new ArrayList<>());
  private final List<Thread> lanes = new ArrayList<>();
  private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
  private long startNanos;
  private Instant started;

  public Nemesis(NemesisSchedule schedule, Injector injector) {
    this.schedule = schedule;
    this.injector = injector;
  }

  /** Starts every lane now: the schedule's times count from this moment. */
  public Nemesis start() {
    startNanos = System.nanoTime();
    started = Instant.now();
    Map<FaultKind.Tier, List<Fault>> byTier = new EnumMap<>(FaultKind.Tier.class);
    for (Fault f : schedule.faults()) {
      byTier.computeIfAbsent(f.kind().tier(), t -> new ArrayList<>()).add(f);
    }
    byTier.forEach(
        (tier, faults) -> {
          Thread t = new Thread(() -> play(faults), "nemesis-" + tier);
          t.start();
          lanes.add(t);
        });
    return this;
  }

  /** The wall-clock moment the schedule's times count from. */
  public Instant started() {
    return started;
  }

  private void play(List<Fault> faults) {
    try {
      for (Fault f : faults) {
        sleepUntil(f.start());
        record("break " + f);
        broken.add(f);
        injector.inject(f);
        sleepUntil(f.heal());
        record("heal  " + f.kind() + " #" + f.target());
        injector.heal(f);
        broken.remove(f);
        record("healed " + f.kind() + " #" + f.target());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception | AssertionError e) {
      log.error("nemesis lane failed", e);
      failures.add(e);
      record("FAILED: " + e);
    }
  }

  private void sleepUntil(Duration at) throws InterruptedException {
    long wait = startNanos + at.toNanos() - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private void record(String what) {
    Event e = new Event(Duration.ofNanos(System.nanoTime() - startNanos), what);
    journal.add(e);
    log.info("nemesis {}", e);
  }

  /** Waits for every lane to have played its faults; false when {@code limit} passed first. */
  public boolean awaitDone(Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    for (Thread t : lanes) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left > 0) {
        t.join(left);
      }
      if (t.isAlive()) {
        return false;
      }
    }
    return true;
  }

  /** What the lanes did, in order. */
  public List<Event> journal() {
    synchronized (journal) {
      return List.copyOf(journal);
    }
  }

  /** What failed to break or heal; empty when every fault was played. */
  public List<Throwable> failures() {
    return List.copyOf(failures);
  }

  /** Stops the lanes and heals whatever is still broken. */
  @Override
  public void close() throws Exception {
    for (Thread t : lanes) {
      t.interrupt();
    }
    for (Thread t : lanes) {
      t.join(TimeUnit.SECONDS.toMillis(120));
    }
    List<Fault> left;
    synchronized (broken) {
      left = List.copyOf(broken);
    }
    Exception first = null;
    for (Fault f : left) {
      try {
        record("heal at close " + f.kind() + " #" + f.target());
        injector.heal(f);
        broken.remove(f);
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
