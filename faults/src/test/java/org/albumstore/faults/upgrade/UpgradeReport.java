package org.albumstore.faults.upgrade;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.albumstore.client.history.History;
import org.albumstore.faults.nemesis.BacklogProbe;
import org.albumstore.faults.nemesis.FaultImpact;
import org.albumstore.faults.nemesis.Nemesis;
import org.albumstore.faults.nemesis.NemesisSchedule;
import org.albumstore.faults.nemesis.WindowImpact;
import org.albumstore.faults.upgrade.UpgradeStep.Action;

/**
 * What an upgrade run did and what each step cost the clients, for {@code upgrade.txt} and {@code
 * step-cost.md}: per step (and for the fault) its window on the history's clock, the longest time
 * without a 200, the write p99, the backlog, the dead-lettered and redriven messages; the expand's
 * write p99 against the rest of the load; then the verdict and the audit. A step's window is the
 * step itself, from its start to its end; the fault's is its break to 10 s after its heal, as the
 * nemesis's report has it.
 */
final class UpgradeReport {
  /** Everything a run leaves to report on. */
  record Run(
      UpgradeSchedule schedule,
      List<Upgrader.StepRun> steps,
      Nemesis nemesis,
      History history,
      BacklogProbe backlog,
      BacklogProbe deadLetters,
      List<String> faultNotes,
      String verdict,
      JsonNode summary,
      DeadLetters.Left deadLettersAtEnd) {}

  private final Run run;
  private final String load;

  UpgradeReport(Run run, String load) {
    this.run = run;
    this.load = load;
  }

  Run run() {
    return run;
  }

  /** What N's consumers dead-lettered in all, by their final counters. */
  long deadLettered() {
    return run.steps().stream().mapToLong(Upgrader.StepRun::deadLettered).sum();
  }

  /** What the redrive moved, in all. */
  long redriven() {
    return run.steps().stream().mapToLong(Upgrader.StepRun::redriven).sum();
  }

  /** {@code upgrade.txt}. */
  List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(run.schedule().toString().stripTrailing());
    out.add("load: " + load);
    out.add("what the upgrade did (s on the history's clock):");
    for (Upgrader.StepRun s : run.steps()) {
      out.add(
          String.format(
              Locale.ROOT,
              "  %7.1f - %7.1f  %s%s: %s | %s | %s | dead-letter queues %s -> %s",
              seconds(s.start()),
              seconds(s.end()),
              s.step().what(),
              overlapsFault(s) ? " (during the fault)" : "",
              s.detail(),
              impact(s),
              backlog(s.start(), s.end()),
              deadLettersBefore(s.start()),
              deadLettersAfter(s.end())));
    }
    out.add("what the fault did (s from the load's start):");
    run.nemesis().journal().forEach(e -> out.add("  " + e));
    run.faultNotes().forEach(n -> out.add("  " + n));
    FaultImpact f = faultImpact();
    BacklogProbe.Backlog left = run.backlog().after(f.fault().start(), f.fault().heal());
    out.add(
        "  "
            + f
            + ", backlog at heal "
            + left.atHeal()
            + ", drained "
            + left.drain().map(d -> d.toMillis() / 1000.0 + " s after").orElse("not by the end"));
    expandP99().ifPresent(out::add);
    out.add("write p99 outside every step and the fault: " + quietP99().toMillis() + " ms");
    out.add(deadLetters());
    out.add(
        "contract step: none in this change (N+1 still reads version 2; N never reads the new"
            + " column)");
    out.add(
        String.format(
            Locale.ROOT,
            "the verdict's times are the history's; on the fault's clock add %.3f s",
            -micros(run.nemesis().started()) / 1e6));
    out.add(run.verdict().stripTrailing());
    out.add(audit());
    return out;
  }

  /** {@code step-cost.md}: one row per step and one for the fault. */
  List<String> table() {
    List<String> out = new ArrayList<>();
    out.add(
        "load: "
            + load
            + "; plan "
            + run.schedule().plan().label()
            + ", seed "
            + run.schedule().seed()
            + "; write p99 outside every step and the fault "
            + quietP99().toMillis()
            + " ms");
    out.add("");
    out.add(
        "| step | from (s) | to (s) | longest without a 200 (s) | 503s | other failures | write p99"
            + " (ms) | backlog max / at end | dead-lettered | redriven | dead-letter queues |");
    out.add("|---|---|---|---|---|---|---|---|---|---|---|");
    for (Upgrader.StepRun s : run.steps()) {
      WindowImpact w = window(s.start(), s.end());
      long[] b = backlogOf(s.start(), s.end());
      out.add(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.1f | %.1f | %d | %d | %d | %s / %s | %d | %d | %s -> %s |",
              s.step().what(),
              seconds(s.start()),
              seconds(s.end()),
              w.longestWithoutOk().toMillis() / 1000.0,
              w.answered503(),
              w.failed(),
              w.writeP99().toMillis(),
              b[0] < 0 ? "?" : b[0],
              b[1] < 0 ? "?" : b[1],
              s.deadLettered(),
              s.redriven(),
              deadLettersBefore(s.start()),
              deadLettersAfter(s.end())));
    }
    FaultImpact f = faultImpact();
    BacklogProbe.Backlog left = run.backlog().after(f.fault().start(), f.fault().heal());
    long from = faultFromMicros();
    out.add(
        String.format(
            Locale.ROOT,
            "| fault: %s #%d | %.1f | %.1f | %.1f | %d | %d | %d | ? / %d at heal | | | |",
            f.fault().kind(),
            f.fault().target(),
            from / 1e6,
            (from + f.fault().heal().minus(f.fault().start()).toNanos() / 1_000) / 1e6,
            f.longestWithoutOk().toMillis() / 1000.0,
            f.answered503(),
            f.failed(),
            f.writeP99().toMillis(),
            left.atHeal()));
    out.add("");
    out.add(deadLetters());
    expandP99().ifPresent(out::add);
    out.add(run.verdict().lines().reduce((a, b) -> b).orElse("no verdict") + "; " + audit());
    return out;
  }

  private String deadLetters() {
    String redrive =
        run.steps().stream()
            .filter(s -> s.step().action() == Action.REDRIVE)
            .map(
                s ->
                    "the dead-letter queues held "
                        + deadLettersBefore(s.start())
                        + " before the redrive, which moved "
                        + redriven())
            .findFirst()
            .orElse("no redrive in this plan");
    return "dead letters: N's consumers dead-lettered "
        + deadLettered()
        + " messages (their final counters; a killed one's are not counted); "
        + redrive
        + "; at the end they held "
        + run.deadLettersAtEnd();
  }

  private Optional<String> expandP99() {
    return run.steps().stream()
        .filter(s -> s.step().action() == Action.EXPAND)
        .findFirst()
        .map(
            s -> {
              long from = micros(s.start());
              long to = micros(s.end());
              Duration outside =
                  WindowImpact.writeP99Outside(run.history(), List.of(new long[] {from, to}));
              return "write p99 during the expand "
                  + window(s.start(), s.end()).writeP99().toMillis()
                  + " ms ("
                  + (to - from) / 1000
                  + " ms long), outside it "
                  + outside.toMillis()
                  + " ms";
            });
  }

  private String audit() {
    JsonNode v = run.summary().path("verification");
    return "audit: "
        + v.path("albums").asLong(-1)
        + " albums read back, "
        + v.path("mismatches").asLong(-1)
        + " mismatches ("
        + v.path("status").asText("?")
        + "); writes "
        + run.summary().path("allWrites").path("ok").asLong(-1)
        + " acknowledged, "
        + run.summary().path("allWrites").path("failed").asLong(-1)
        + " failed";
  }

  private Duration quietP99() {
    List<long[]> windows = new ArrayList<>();
    for (Upgrader.StepRun s : run.steps()) {
      windows.add(new long[] {micros(s.start()), micros(s.end())});
    }
    windows.add(faultWindow());
    return WindowImpact.writeP99Outside(run.history(), windows);
  }

  /** Whether the step's window meets the fault's, its 10 s of recovery included. */
  private boolean overlapsFault(Upgrader.StepRun s) {
    long[] f = faultWindow();
    return micros(s.start()) <= f[1] && micros(s.end()) >= f[0];
  }

  /** The fault's window in the history's µs: its break to 10 s after its heal. */
  private long[] faultWindow() {
    long from = faultFromMicros();
    Duration span = run.schedule().fault().heal().minus(run.schedule().fault().start());
    return new long[] {from, from + span.plusSeconds(10).toNanos() / 1_000};
  }

  private FaultImpact faultImpact() {
    NemesisSchedule one =
        NemesisSchedule.of(
            run.schedule().seed(), run.schedule().length(), List.of(run.schedule().fault()));
    return FaultImpact.of(one, run.history(), micros(run.nemesis().started())).get(0);
  }

  private long faultFromMicros() {
    return micros(run.nemesis().started()) + run.schedule().fault().start().toNanos() / 1_000;
  }

  private String impact(Upgrader.StepRun s) {
    return window(s.start(), s.end()).toString();
  }

  private WindowImpact window(Instant from, Instant to) {
    return WindowImpact.of(run.history(), micros(from), micros(to));
  }

  private String backlog(Instant from, Instant to) {
    long[] b = backlogOf(from, to);
    return "backlog max " + (b[0] < 0 ? "?" : b[0]) + ", at end " + (b[1] < 0 ? "?" : b[1]);
  }

  /** The messages in the dead-letter queues at the last sample before {@code at}; ? for none. */
  private String deadLettersBefore(Instant at) {
    long t = at.toEpochMilli() - run.deadLetters().startedAt().toEpochMilli();
    long found = -1;
    for (BacklogProbe.Sample s : run.deadLetters().samples()) {
      if (s.atMillis() > t) {
        break;
      }
      found = s.messages();
    }
    return found < 0 ? "?" : Long.toString(found);
  }

  /** The same at the first sample after {@code at}. */
  private String deadLettersAfter(Instant at) {
    long t = at.toEpochMilli() - run.deadLetters().startedAt().toEpochMilli();
    for (BacklogProbe.Sample s : run.deadLetters().samples()) {
      if (s.atMillis() >= t) {
        return Long.toString(s.messages());
      }
    }
    return "?";
  }

  /** The most ready messages sampled in the window, and the first sample from its end; -1: none. */
  private long[] backlogOf(Instant from, Instant to) {
    long a = from.toEpochMilli() - run.backlog().startedAt().toEpochMilli();
    long b = to.toEpochMilli() - run.backlog().startedAt().toEpochMilli();
    long max = -1;
    long atEnd = -1;
    for (BacklogProbe.Sample s : run.backlog().samples()) {
      if (s.atMillis() >= a && s.atMillis() <= b) {
        max = Math.max(max, s.messages());
      }
      if (s.atMillis() >= b && atEnd < 0) {
        atEnd = s.messages();
      }
    }
    return new long[] {max, atEnd};
  }

  /** {@code at} on the history's clock, µs since its origin. */
  private long micros(Instant at) {
    return (at.toEpochMilli() - run.history().originEpochMillis()) * 1_000;
  }

  private double seconds(Instant at) {
    return micros(at) / 1e6;
  }
}
