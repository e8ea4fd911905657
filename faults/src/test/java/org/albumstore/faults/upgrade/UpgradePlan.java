package org.albumstore.faults.upgrade;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.albumstore.faults.upgrade.UpgradeStep.Action;
import org.albumstore.faults.upgrade.UpgradeStep.Side;

/**
 * The orders an upgrade can take, the documented one and those it warns against, each as its steps
 * in order (the seed picks the order of the instances and the moments: {@link UpgradeSchedule}).
 * The contract step is missing from every plan: this change (message version 3, a nullable column)
 * has none, since N+1 still reads version 2 and N never reads the new column.
 */
public enum UpgradePlan {
  /**
   * deploy/'s order: the schema expanded first, online; then the consumers one at a time, so that
   * every consumer reads version 3 before any server writes it; then the servers one at a time.
   */
  DOCUMENTED(
      "expand, consumers one at a time, then servers one at a time; no contract step", Side.N),

  /**
   * The wrong order: N+1's servers write version 3 while N's consumers still take from the queue,
   * which dead-letter it with its reason; once every consumer is N+1, one redrive moves it back.
   */
  SERVERS_FIRST("expand, servers before consumers, then one redrive", Side.N),

  /**
   * From N+1 everywhere (the schema expanded before the load) back to N with version-3 messages in
   * the queue: the N+1 consumers are stopped first (what a rollback is usually for), the servers go
   * back to N, then N's consumers start on the version-3 backlog and dead-letter it; the consumers
   * are rolled forward again, which reads both versions, and one redrive moves it back.
   */
  ROLLBACK(
      "from N+1: consumers stopped, servers back to N, N consumers on the version-3 backlog,"
          + " consumers forward to N+1, then one redrive",
      Side.N_PLUS_1),

  /**
   * {@link #SERVERS_FIRST} with N's consumers built with the planted bug (they acknowledge what
   * they cannot read): the run must be caught. Not the documented order: there no N consumer ever
   * meets a version-3 message, so the bug has nothing to drop; the wrong order is where
   * dead-lettering is what keeps the writes, and where a consumer that drops instead must be seen.
   */
  PLANTED("servers-first with N's consumers acknowledging what they cannot read", Side.N);

  private final String description;
  private final Side start;

  UpgradePlan(String description, Side start) {
    this.description = description;
    this.start = start;
  }

  public String description() {
    return description;
  }

  /** The release every instance runs when the load starts. */
  public Side start() {
    return start;
  }

  /** The name {@code -Dalbumstore.upgrade.plan} and the results' folders use. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static UpgradePlan fromLabel(String label) {
    for (UpgradePlan p : values()) {
      if (p.label().equals(label.strip())) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown upgrade plan '" + label + "' (documented, servers-first, rollback, planted)");
  }

  /**
   * The steps in order, without their moments: {@code consumers} and {@code servers} give the order
   * in which the instances are taken.
   */
  List<UpgradeStep> steps(List<Integer> consumers, List<Integer> servers) {
    List<UpgradeStep> steps = new ArrayList<>();
    switch (this) {
      case DOCUMENTED -> {
        steps.add(step(Action.EXPAND, 0, null));
        consumers.forEach(i -> steps.add(step(Action.REPLACE_CONSUMER, i, Side.N_PLUS_1)));
        servers.forEach(i -> steps.add(step(Action.REPLACE_SERVER, i, Side.N_PLUS_1)));
      }
      case SERVERS_FIRST, PLANTED -> {
        steps.add(step(Action.EXPAND, 0, null));
        servers.forEach(i -> steps.add(step(Action.REPLACE_SERVER, i, Side.N_PLUS_1)));
        consumers.forEach(i -> steps.add(step(Action.REPLACE_CONSUMER, i, Side.N_PLUS_1)));
        steps.add(step(Action.REDRIVE, 0, null));
      }
      case ROLLBACK -> {
        consumers.forEach(i -> steps.add(step(Action.STOP_CONSUMER, i, null)));
        servers.forEach(i -> steps.add(step(Action.REPLACE_SERVER, i, Side.N)));
        consumers.forEach(i -> steps.add(step(Action.REPLACE_CONSUMER, i, Side.N)));
        consumers.forEach(i -> steps.add(step(Action.REPLACE_CONSUMER, i, Side.N_PLUS_1)));
        steps.add(step(Action.REDRIVE, 0, null));
      }
    }
    return steps;
  }

  private static UpgradeStep step(Action action, int target, Side to) {
    return new UpgradeStep(action, target, to, java.time.Duration.ZERO);
  }
}
