package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.TestJvm;
import org.junit.jupiter.api.Test;

/**
 * A node whose close is still under way when its JVM exits does not outlive that JVM. The local
 * launcher gives up waiting for a part's stop after a bound and exits; the close, left on a daemon
 * thread, used to take the node's exit hook away as it began, so a slow stop left the node running
 * with its directory deleted (seen in {@code ClusterStackIT} on a loaded machine). Here the child
 * JVM pauses its node, so that {@code rabbitmqctl stop} cannot finish, starts the close and exits.
 */
class RabbitNodeExitIT {
  private static final String PROCESS_LINE = "node-process ";

  /** Bounds the child: a node's start on a loaded 2-core machine (3 minutes seen) and its exit. */
  private static final Duration CHILD_LIMIT = Duration.ofMinutes(5);

  @Test
  void aNodeStillClosingWhenItsJvmExitsIsKilledWithIt() throws Exception {
    ExternalTools.system()
        .requireThat(
            RabbitCluster.installed(),
            "RabbitMQ (rabbitmq-server, rabbitmqctl; apt-get install rabbitmq-server)",
            "the RabbitMQ node exit test");
    String id = UUID.randomUUID().toString().substring(0, 8);
    Path dir = Files.createDirectories(Path.of("target", "rabbit-exit-it", id).toAbsolutePath());
    TestJvm.Run child =
        TestJvm.run(
            ClosingAtExit.class,
            dir.resolve("child.log"),
            CHILD_LIMIT,
            List.of(),
            "albumstore-exit-" + id,
            dir.resolve("node").toString());
    List<ProcessHandle> started =
        child
            .output()
            .lines()
            .filter(l -> l.startsWith(PROCESS_LINE))
            .map(l -> ProcessHandle.of(Long.parseLong(l.substring(PROCESS_LINE.length()))))
            .flatMap(Optional::stream)
            .toList();
    try {
      assertThat(child.ended()).as("the child JVM exits within %s", CHILD_LIMIT).isTrue();
      assertThat(child.exitCode()).as(child.output()).isZero();
      assertThat(child.output())
          .as("the child exited with its node's close under way, and saw the node's processes")
          .contains("closing: true", PROCESS_LINE);
      assertThat(awaitGone(started, Duration.ofSeconds(15)))
          .as(
              "the node's processes still running after its JVM exited; child output:%n%s",
              child.output())
          .extracting(p -> p.info().commandLine().orElse("pid " + p.pid()))
          .isEmpty();
    } finally {
      started.forEach(ProcessHandle::destroyForcibly); // heal a failure: nothing of this test stays
    }
  }

  private static List<ProcessHandle> awaitGone(List<ProcessHandle> processes, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    List<ProcessHandle> alive = processes;
    while (!(alive = alive.stream().filter(ProcessHandle::isAlive).toList()).isEmpty()
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    return alive;
  }

  /**
   * The child JVM: starts a node, pauses it, starts closing it on a daemon thread and exits while
   * that close waits for its {@code rabbitmqctl stop}; prints the PIDs of every process it started
   * (epmd aside, which any Erlang node starts when none runs and which outlives it by design) once
   * the node runs and again just before it exits.
   */
  public static final class ClosingAtExit {
    public static void main(String[] args) throws Exception {
      RabbitNode node =
          RabbitNode.builder(args[0], Path.of(args[1]))
              .config(
                  "listeners.tcp.default = 127.0.0.1:" + RabbitNode.freePort(),
                  "disk_free_limit.absolute = 50MB")
              .start();
      printProcesses(); // now too, so that a child that hangs later leaves nothing behind
      node.pause();
      Thread closer =
          new Thread(
              () -> {
                try {
                  node.close();
                } catch (Exception e) {
                  System.out.println("close failed: " + e);
                }
              },
              "closer");
      closer.setDaemon(true);
      closer.start();
      // The close is under way once its rabbitmqctl stop runs; it cannot reach a paused node.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!stopRuns() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      System.out.println("closing: " + (stopRuns() && closer.isAlive()));
      printProcesses();
      System.exit(0);
    }

    private static void printProcesses() {
      ProcessHandle.current()
          .descendants()
          .filter(p -> !p.info().commandLine().orElse("").contains("epmd"))
          .forEach(p -> System.out.println(PROCESS_LINE + p.pid()));
    }

    private static boolean stopRuns() {
      return ProcessHandle.current()
          .descendants()
          .map(p -> p.info().commandLine().orElse(""))
          .anyMatch(c -> c.contains("rabbitmqctl") && c.endsWith(" stop"));
    }
  }
}
