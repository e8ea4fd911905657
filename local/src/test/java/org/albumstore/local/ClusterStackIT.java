package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.cluster.HaProxy;
import org.albumstore.embedded.cluster.RabbitCluster;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one command of the cluster topology, small: three RabbitMQ nodes clustered, HAProxy in front
 * of them and of two server JVMs, two consumer JVMs, a load run through the balancer that ends
 * verified, and nothing of it left running afterwards.
 */
class ClusterStackIT {
  @TempDir Path dir;

  @Test
  void theClusterTopologyRunsTheLoadThroughTheBalancerToAVerifiedEndAndStopsEverything()
      throws Exception {
    ExternalTools tools = ExternalTools.system();
    tools.requireThat(
        RabbitCluster.installed(),
        "RabbitMQ (apt-get install rabbitmq-server)",
        "the cluster stack (3 RabbitMQ nodes)");
    tools.requireThat(
        HaProxy.executable().isPresent(),
        "HAProxy (apt-get install haproxy)",
        "the cluster stack's balancer");

    DatabaseSettings db = TestServices.database();
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put(CommonSettings.JDBC_URL.variable(), db.jdbcUrl());
    env.put(CommonSettings.DB_USER.variable(), db.user());
    env.put(CommonSettings.DB_PASSWORD.variable(), db.password());
    env.put(
        CommonSettings.QUEUE.variable(),
        "it.local.cluster"); // in the cluster's own nodes, gone with them
    env.put(CommonSettings.QUEUE_PARTITIONS.variable(), "3");
    // What this JVM runs already (the test services' own broker, when a release is chosen): not
    // the run's to stop.
    Set<Long> before =
        ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        LocalMain.run(
            Env.of(env),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "--topology",
            "cluster",
            "--servers",
            "2",
            "--consumers",
            "2",
            "--threads",
            "8",
            "--iterations",
            "5",
            "--no-progress",
            "--drain-timeout",
            "60",
            "--out",
            dir.resolve("run").toString());
    String stdout = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(stdout + err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(stdout)
        .contains("3 RabbitMQ nodes clustered")
        .contains("partition handling pause_minority")
        .contains("leastconn, /albumstore/health")
        .contains("servers: 2 JVMs")
        .contains("consumers: 2 JVMs")
        .contains("(3 partition(s), quorum, 3 members each)")
        .containsPattern("verified: 40 albums, 0 mismatches")
        .contains(
            "stopped server 1", "stopped server 2", "stopped consumer 1", "stopped consumer 2")
        .contains("stopped HAProxy", "stopped RabbitMQ cluster");
    // Three partitions, each led by a different node, as the launcher prints them.
    String partitions =
        stdout.lines().filter(l -> l.contains("partitions:")).findFirst().orElseThrow();
    List<String> leaders =
        Pattern.compile("(it\\.local\\.cluster(?:\\.\\d)?) led by (\\S+?),?(?= |$)")
            .matcher(partitions)
            .results()
            .map(m -> m.group(1) + "=" + m.group(2))
            .toList();
    assertThat(leaders)
        .as(partitions)
        .extracting(l -> l.substring(0, l.indexOf('=')))
        .containsExactly("it.local.cluster", "it.local.cluster.1", "it.local.cluster.2");
    assertThat(leaders)
        .as(partitions)
        .extracting(l -> l.substring(l.indexOf('=') + 1))
        .doesNotHaveDuplicates()
        .allMatch(n -> n.endsWith("@localhost"));
    // The report is complete: every server's and consumer's metrics merged per tier, the broker's
    // figures from the cluster's management API; no row without numbers.
    assertThat(stdout.lines().filter(l -> l.contains("n/a")).toList())
        .as("report lines without numbers")
        .isEmpty();
    assertThat(stdout)
        .containsPattern(
            "tier metrics: server http://127\\.0\\.0\\.1:\\d+/albumstore/metrics,http://127\\.0\\.0\\.1:\\d+/albumstore/metrics,"
                + " consumer http://127\\.0\\.0\\.1:\\d+/metrics,http://127\\.0\\.0\\.1:\\d+/metrics");
    // Nothing the run started is left: no server, consumer, HAProxy or RabbitMQ node (epmd, which
    // any Erlang node starts when none runs and which outlives it by design, aside).
    List<String> left =
        ProcessHandle.current()
            .descendants()
            .filter(ProcessHandle::isAlive)
            .filter(p -> !before.contains(p.pid()))
            .map(p -> p.info().commandLine().orElse("pid " + p.pid()))
            .filter(c -> !c.contains("epmd"))
            .toList();
    assertThat(left).as("processes left running").isEmpty();
  }
}
