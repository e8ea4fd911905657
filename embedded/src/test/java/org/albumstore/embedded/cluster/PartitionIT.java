package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Partition}'s rules on the real netfilter, on addresses and ports no process uses
 * (127.255.1.x): a cut adds four tagged rules, a heal leaves none, and a rule left by a run whose
 * process is gone is deleted when the next partition is created. ({@code ClusterFaultsIT} C6
 * partitions a real cluster with it.)
 */
class PartitionIT {
  @BeforeAll
  static void needsIptables() {
    ExternalTools.system()
        .requireThat(
            Partition.unavailable().isEmpty(),
            "iptables with the right to change the rules (root or CAP_NET_ADMIN): "
                + Partition.unavailable().orElse(""),
            "the partition rules test");
  }

  @Test
  void aCutAddsTaggedRulesAndAHealLeavesNone() throws Exception {
    try (Partition p = Partition.create("it-" + UUID.randomUUID().toString().substring(0, 8))) {
      p.cut("127.255.1.11", 9, "127.255.1.12", 13);
      List<String> rules = p.activeRules();
      assertThat(rules).hasSize(4);
      assertThat(rules).allMatch(r -> r.contains("127.255.1.1") && r.endsWith("-j DROP"));
      p.heal();
      assertThat(p.activeRules()).isEmpty();
    }
  }

  @Test
  void rulesOfADeadRunAreDeletedByTheNextOne() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String staleTag = Partition.TAG_PREFIX + gone.pid() + "-it-stale";
    List<String> rule =
        List.of(
            "INPUT",
            "-s",
            "127.255.1.21",
            "-d",
            "127.255.1.22",
            "-m",
            "comment",
            "--comment",
            staleTag,
            "-j",
            "DROP");
    assertThat(iptables("-I", rule)).isZero();
    try (Partition p = Partition.create("it-" + UUID.randomUUID().toString().substring(0, 8))) {
      Process list =
          new ProcessBuilder(Partition.executable().orElseThrow().toString(), "-S", "INPUT")
              .start();
      String rules = new String(list.getInputStream().readAllBytes());
      list.waitFor();
      assertThat(rules).doesNotContain(staleTag);
    } finally {
      iptables("-D", rule); // already gone unless the test failed; nothing may be left behind
    }
  }

  private static int iptables(String action, List<String> rule) throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(Partition.executable().orElseThrow().toString(), "-w", "5", action));
    cmd.addAll(rule);
    return new ProcessBuilder(cmd).redirectErrorStream(true).start().waitFor();
  }
}
