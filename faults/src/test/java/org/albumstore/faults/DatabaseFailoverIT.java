package org.albumstore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.embedded.cluster.HaProxy;
import org.albumstore.embedded.cluster.ReplicatedPostgres;
import org.albumstore.embedded.cluster.ReplicatedPostgres.Replication;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.faults.harness.ApiClient;
import org.albumstore.faults.harness.ConsumerProcess;
import org.albumstore.faults.harness.Finish;
import org.albumstore.faults.harness.LoadChecks;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.Stack;
import org.albumstore.faults.harness.Summary;
import org.albumstore.faults.harness.WriteLoad;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scenario 8: a PostgreSQL failover under load, as RDS Multi-AZ performs one. The server and the
 * consumer reach the database through one address (HAProxy in {@code mode tcp}, the endpoint); in
 * the middle of the load the primary crashes ({@code pg_ctl stop -m immediate}), its standby is
 * promoted, and the address is switched to it.
 *
 * <ul>
 *   <li>With synchronous replication (RDS Multi-AZ's), nothing acknowledged is lost and nothing is
 *       counted twice: every commit the consumer was told of is on the standby; what it had not
 *       acknowledged is redelivered and applied once (the ledger of applied events moved with the
 *       data). The audit passes.
 *   <li>With asynchronous replication and a standby that had stopped receiving, the commits it
 *       missed are gone although their messages were acknowledged; the audit must say so. This is
 *       the proof that the audit sees a lossy failover, and why the deployment asks for a
 *       synchronous standby.
 * </ul>
 *
 * <p>Needs the installed PostgreSQL ({@code initdb}, {@code pg_ctl}, {@code pg_basebackup}) and
 * HAProxy: skipped in one line without them, failed with {@code CI=true}. The broker is the shared
 * test broker, with a queue of this scenario's own.
 */
class DatabaseFailoverIT {
  private static final Duration LIMIT = Duration.ofSeconds(30);

  @BeforeAll
  static void needsPostgresAndHaProxy() {
    ExternalTools tools = ExternalTools.system();
    String purpose = "the PostgreSQL failover scenarios";
    tools.requireThat(
        ReplicatedPostgres.installation().isPresent(),
        "PostgreSQL's server programs (apt-get install postgresql)",
        purpose);
    tools.requireThat(
        HaProxy.executable().isPresent(), "HAProxy (apt-get install haproxy)", purpose);
  }

  @Test
  void aFailoverToASynchronousStandbyLosesNothingAndCountsNothingTwice() throws Exception {
    try (ReplicatedPostgres pg = ReplicatedPostgres.start(Replication.SYNCHRONOUS);
        HaProxy endpoint = HaProxy.startDatabase(dir("sync"), pg.primaryPort(), pg.standbyPort());
        Stack stack = Stack.create("s8-failover-sync", address(endpoint))) {
      stack.startServer(Map.of());
      ConsumerProcess consumer =
          stack.startConsumer("--init-schema", "true", "--prefetch", "50", "--batch-size", "50");
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 32, Timeout.ofSeconds(15))) {
        WriteLoad load = new WriteLoad(api, stack.runId, 16, 50, 100, Duration.ofSeconds(90), null);
        try {
          load.start();
          load.awaitAcked(load.plannedWrites() / 4, Duration.ofSeconds(60));
          boolean midRun = !load.isDone();
          long failoverMillis = failover(pg, endpoint);
          load.awaitDone(Duration.ofSeconds(120));

          Finish.Outcome end = Finish.drainStopAndAudit(stack, load.ledger(), 0);
          Summary.record(
              Summary.loadLine(
                  "scenario 8 (PostgreSQL failover, synchronous standby)",
                  load.stats(),
                  end.redeliveries(),
                  end.audit(),
                  "crash to switched endpoint " + failoverMillis + " ms"));

          assertThat(midRun).as("the primary crashed while the load was running").isTrue();
          assertThat(consumer.output())
              .contains(
                  "database writes failing, retrying with back-off (messages stay unacknowledged)")
              .contains("database writes recovered after");
          LoadChecks.assertClean(load.stats());
          assertThat(end.audit().deadLetters()).as("dead letters").isZero();
          assertThat(end.audit().passed()).as(end.audit().verdict()).isTrue();
          assertThat(end.cleanStop()).as(end.stopDescription()).isTrue();
        } finally {
          load.interrupt();
        }
      }
    }
  }

  @Test
  void theAuditReportsWhatAFailoverToAStandbyThatFellBehindLost() throws Exception {
    try (ReplicatedPostgres pg = ReplicatedPostgres.start(Replication.ASYNCHRONOUS);
        HaProxy endpoint = HaProxy.startDatabase(dir("async"), pg.primaryPort(), pg.standbyPort());
        Stack stack = Stack.create("s8-failover-async", address(endpoint))) {
      stack.startServer(Map.of());
      stack.startConsumer("--init-schema", "true", "--prefetch", "50", "--batch-size", "50");
      try (ApiClient api = new ApiClient(stack.server().baseUrl(), 32, Timeout.ofSeconds(15))) {
        WriteLoad load = new WriteLoad(api, stack.runId, 16, 50, 100, Duration.ofSeconds(90), null);
        try {
          load.start();
          load.awaitAcked(load.plannedWrites() / 4, Duration.ofSeconds(60));
          pg.stopReplication();
          long ackedAtCut = load.ledger().reviewsAcked();
          load.awaitAcked(load.plannedWrites() / 2, Duration.ofSeconds(60));
          Thread.sleep(2_000); // the consumer commits them on the primary alone and acknowledges
          boolean midRun = !load.isDone();
          failover(pg, endpoint);
          load.awaitDone(Duration.ofSeconds(120));

          Finish.Outcome end = Finish.settleStopAndAudit(stack, load.ledger());
          Summary.record(
              Summary.loadLine(
                  "scenario 8 (PostgreSQL failover, asynchronous standby cut off first: loss"
                      + " expected and caught)",
                  load.stats(),
                  end.redeliveries(),
                  end.audit(),
                  "reviews acknowledged when the standby was cut off " + ackedAtCut));

          assertThat(midRun).as("the primary crashed while the load was running").isTrue();
          assertThat(end.audit().passed())
              .as("the audit must fail: %s", end.audit().verdict())
              .isFalse();
          assertThat(end.audit().mismatches()).as(end.audit().verdict()).isPositive();
          assertThat(end.audit().reviewsFound())
              .as("fewer reviews stored than acknowledged: " + end.audit().verdict())
              .isLessThan(end.audit().reviewsAcked());
          assertThat(end.audit().leftInQueue()).as("nothing left in the queue").isZero();
        } finally {
          load.interrupt();
        }
      }
    }
  }

  /** Crash, promote, switch, as RDS does; the milliseconds from the crash to the switch. */
  private static long failover(ReplicatedPostgres pg, HaProxy endpoint) throws Exception {
    long t0 = System.nanoTime();
    pg.crashPrimary();
    endpoint.awaitDatabaseState(HaProxy.PRIMARY, "DOWN", LIMIT);
    pg.promoteStandby();
    endpoint.switchDatabaseToStandby(LIMIT);
    return (System.nanoTime() - t0) / 1_000_000;
  }

  private static DatabaseSettings address(HaProxy endpoint) {
    return ReplicatedPostgres.settings(endpoint.databasePort(), ReplicatedPostgres.DATABASE);
  }

  private static Path dir(String name) {
    return Paths.outputDir()
        .resolve("database-failover-" + name + "-" + UUID.randomUUID().toString().substring(0, 8));
  }
}
